#include <catch2/catch.hpp>

#include <filesystem>

#include "cli_runner.hpp"
#include "loupe/core/atomic_file.hpp"

namespace fs = std::filesystem;

TEST_CASE("atomic write creates directories, replaces content and leaves no temp file",
          "[atomic]") {
  loupe::test::TempDir tmp;
  const auto target = tmp.path() / "a" / "b" / "out.json";
  loupe::core::write_file_atomically(target, "first");
  loupe::core::write_file_atomically(target, "second");
  CHECK(loupe::test::read_text(target) == "second");
  size_t entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(target.parent_path())) ++entries;
  CHECK(entries == 1);
}

TEST_CASE("a failed atomic write leaves the old file intact", "[atomic]") {
  loupe::test::TempDir tmp;
  const auto target = tmp.path() / "out.json";
  loupe::core::write_file_atomically(target, "old");
  // The target path is a directory: the rename must fail and the temp file must vanish.
  const auto dir_target = tmp.path() / "is_a_dir";
  fs::create_directories(dir_target / "child");
  CHECK_THROWS_WITH(loupe::core::write_file_atomically(dir_target, "new"),
                    Catch::Contains("is_a_dir"));
  CHECK(loupe::test::read_text(target) == "old");
  size_t entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(tmp.path())) ++entries;
  CHECK(entries == 2);
}
