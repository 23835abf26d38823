#include "huge_pages.hpp"

#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "memory_estimate.hpp"

namespace loupe::cli {

namespace {

constexpr std::string_view kTunable = "glibc.malloc.hugetlb=1";

// Huge pages pay off on big traces only: on the pack's small ones (0.04-17 MB) they saved no
// measurable time and added 1-4 MB of peak RSS, so those run as before, without the extra exec
// (docs/performance.md, "Big traces").
constexpr std::uint64_t kMinJsonBytes = std::uint64_t{32} << 20;

// The JSON bytes of the traces `argv` reads (`analyze --trace T [--trace2 T2]`,
// `inspect TRACE`), from their sizes or gzip trailers; 0 when it reads none.
std::uint64_t trace_json_bytes(int argc, char** argv) {
  if (argc < 3) return 0;
  const std::string_view command = argv[1];
  std::vector<std::string> paths;
  if (command == "inspect") {
    for (int i = 2; i < argc; ++i) {
      if (argv[i][0] != '-') {
        paths.emplace_back(argv[i]);
        break;
      }
    }
  } else if (command == "analyze") {
    for (int i = 2; i < argc; ++i) {
      const std::string_view arg = argv[i];
      for (const std::string_view option : {"--trace", "--trace2"}) {
        if (arg == option && i + 1 < argc) paths.emplace_back(argv[i + 1]);
        if (arg.size() > option.size() + 1 && arg.starts_with(option) &&
            arg[option.size()] == '=') {
          paths.emplace_back(arg.substr(option.size() + 1));
        }
      }
    }
  }
  std::uint64_t total = 0;
  for (const auto& path : paths) {
    std::string why;
    if (const auto size = estimate_trace_size(path, why)) total += size->json_bytes;
  }
  return total;
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
  if (trace_json_bytes(argc, argv) < kMinJsonBytes || !huge_pages_on_request()) return;
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
