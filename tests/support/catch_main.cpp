// The Catch2 main of every test binary. `--loupe-needs-pack` (added by loupe_add_test for the
// ctest entry that runs the [pack] cases) makes the binary exit with 77, which ctest reports as
// skipped, when the reference pack is absent. LOUPE_NEEDS_CHROMIUM=1 in the environment (set
// by CMake for the browser tests) does the same when no chromium is installed.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <vector>

#include "test_paths.hpp"

int main(int argc, char** argv) {
  std::vector<char*> args;
  bool needs_pack = false;
  for (int i = 0; i < argc; ++i) {
    if (std::strcmp(argv[i], "--loupe-needs-pack") == 0) {
      needs_pack = true;
    } else {
      args.push_back(argv[i]);
    }
  }
  if (needs_pack && !loupe::test::shared_dir()) {
    std::cout << "SKIPPED: reference pack not found at " << loupe::test::shared_dir_description()
              << "\n";
    return 77;
  }
  if (const char* needs = std::getenv("LOUPE_NEEDS_CHROMIUM");
      needs != nullptr && std::strcmp(needs, "1") == 0 && !loupe::test::chromium()) {
    std::cout << "SKIPPED: no chromium found (install the Debian package chromium, or set "
                 "LOUPE_CHROMIUM)\n";
    return 77;
  }
  return Catch::Session().run(static_cast<int>(args.size()), args.data());
}
