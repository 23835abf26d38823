#include <catch2/catch.hpp>

#include <filesystem>

#include "cli_runner.hpp"
#include "loupe/core/util/atomic_file.hpp"

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

TEST_CASE("a batch of files is written with one flush, in order, or not at all", "[atomic]") {
  loupe::test::TempDir tmp;
  const auto a = tmp.path() / "x" / "a.csv";
  const auto b = tmp.path() / "y" / "b.json";
  loupe::core::write_file_atomically(b, "old b");
  loupe::core::write_files_atomically({{a, "new a"}, {b, "new b"}});
  CHECK(loupe::test::read_text(a) == "new a");
  CHECK(loupe::test::read_text(b) == "new b");

  // The second target's parent is a regular file: nothing is written and nothing replaced.
  const auto blocker = tmp.path() / "blocker";
  loupe::core::write_file_atomically(blocker, "file");
  CHECK_THROWS_WITH(loupe::core::write_files_atomically({{a, "newer a"}, {blocker / "c", "c"}}),
                    Catch::Contains("blocker"));
  CHECK(loupe::test::read_text(a) == "new a");
  size_t entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(a.parent_path())) ++entries;
  CHECK(entries == 1);  // no temporary left behind
}
