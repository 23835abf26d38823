// The Catch2 main of every test binary. `--loupe-needs-pack` (added by loupe_add_test for the
// ctest entry that runs the [pack] cases) makes the binary exit with 77, which ctest reports as
// skipped, when the reference pack is absent.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

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
  return Catch::Session().run(static_cast<int>(args.size()), args.data());
}
