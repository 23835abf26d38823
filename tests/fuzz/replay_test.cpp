// Replays the inputs of tests/data/fuzz/<target>/ (crashers found by the fuzz campaigns, and
// edge cases) through the fuzz target's own entry point, in the regular and sanitizer builds.
#include <catch2/catch.hpp>

#include <cstdint>
#include <filesystem>
#include <string>

#include "cli_runner.hpp"
#include "test_paths.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

TEST_CASE("every recorded fuzz input runs through its target without a crash", "[fuzz]") {
  const auto dir = loupe::test::bundled_data_dir() / "fuzz" / LOUPE_FUZZ_TARGET;
  std::size_t replayed = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    INFO(entry.path().string());
    const std::string bytes = loupe::test::read_text(entry.path());
    CHECK(LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()),
                                 bytes.size()) == 0);
    ++replayed;
  }
  CHECK(replayed >= 1);
}
