#include "huge_pages.hpp"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>

namespace loupe::cli {

namespace {

constexpr std::string_view kTunable = "glibc.malloc.hugetlb=1";

bool reads_a_trace(int argc, char** argv) {
  if (argc < 2) return false;
  const std::string_view command = argv[1];
  if (command == "inspect") return true;
  if (command != "analyze") return false;
  for (int i = 2; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.starts_with("--trace")) return true;  // --trace, --trace2, --trace-glob, ...
  }
  return false;
}

// THP in "madvise" mode: huge pages only where asked for, which glibc does with the tunable.
bool huge_pages_on_request() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string mode;
  std::getline(in, mode);
  return mode.find("[madvise]") != std::string::npos;
}

}  // namespace

void reexec_with_huge_pages(int argc, char** argv) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 35))
  if (const char* off = std::getenv("LOUPE_NO_HUGE_PAGES"); off != nullptr && *off != '\0') return;
  const char* current = std::getenv("GLIBC_TUNABLES");
  const std::string tunables = current == nullptr ? "" : current;
  if (tunables.find("glibc.malloc.hugetlb") != std::string::npos) return;  // set, or re-executed
  if (!reads_a_trace(argc, argv) || !huge_pages_on_request()) return;
  const std::string value =
      tunables.empty() ? std::string(kTunable) : tunables + ":" + std::string(kTunable);
  if (::setenv("GLIBC_TUNABLES", value.c_str(), 1) != 0) return;
  ::execv("/proc/self/exe", argv);
  // exec failed: carry on without huge pages, with the environment as it was.
  if (current == nullptr) {
    ::unsetenv("GLIBC_TUNABLES");
  } else {
    ::setenv("GLIBC_TUNABLES", tunables.c_str(), 1);
  }
#else
  (void)argc;
  (void)argv;
#endif
}

}  // namespace loupe::cli
