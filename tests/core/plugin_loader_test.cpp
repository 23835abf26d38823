// Plugin discovery: the good plugin loads; every broken one is rejected with a clear reason.
#include <catch2/catch.hpp>

#include <filesystem>

#include "cli_runner.hpp"
#include "loupe/core/plugin_registry.hpp"

namespace fs = std::filesystem;
using loupe::core::discover_plugins;

namespace {
fs::path case_dir(const std::string& name) { return loupe::test::test_plugin_dir() / name; }

std::string single_rejection(const std::string& name) {
  const auto set = discover_plugins({case_dir(name)});
  REQUIRE(set.plugins.empty());
  REQUIRE(set.rejected.size() == 1);
  return set.rejected[0].reason;
}
}  // namespace

TEST_CASE("a good plugin loads with its descriptor", "[loader]") {
  const auto set =
      discover_plugins({case_dir("good"), case_dir("good_compute"), case_dir("reader")});
  REQUIRE(set.rejected.empty());
  REQUIRE(set.plugins.size() == 3);
  const auto& good = set.plugins[0];
  CHECK(good.name == "test_good");
  CHECK(good.version == "0.0.1");
  CHECK(good.abi_major == LOUPE_ABI_MAJOR);
  CHECK(good.tier == LOUPE_TIER_SYSTEM);
  CHECK(good.categories == std::vector<std::string>{"test_good"});
  CHECK(set.plugins[1].tier == LOUPE_TIER_COMPUTE);
  CHECK(set.plugins[2].reads == std::vector<std::string>{"test_good"});
  REQUIRE(set.find_by_category("test_compute") != nullptr);
  CHECK(set.find_by_category("test_compute")->name == "test_compute");
  CHECK(set.find_by_category("nope") == nullptr);
}

TEST_CASE("broken plugins are rejected with the documented reasons", "[loader]") {
  CHECK_THAT(single_rejection("wrong_abi"),
             Catch::Contains("ABI major 99 does not match host ABI major 1"));
  CHECK_THAT(single_rejection("null_descriptor"), Catch::Contains("returned NULL"));
  CHECK_THAT(single_rejection("no_entry"), Catch::Contains("no entry symbol 'loupe_plugin_entry'"));
  CHECK_THAT(single_rejection("newer_host"), Catch::Contains("needs host services of ABI 1.7"));
  CHECK_THAT(single_rejection("no_categories"), Catch::Contains("declares no category"));
}

TEST_CASE("two plugins claiming one category: the second is rejected", "[loader]") {
  const auto set = discover_plugins({case_dir("duplicate")});
  REQUIRE(set.plugins.size() == 1);
  CHECK(set.plugins[0].name == "test_dup_a");
  REQUIRE(set.rejected.size() == 1);
  CHECK(set.rejected[0].path.filename() == "loupe_test_duplicate_b.so");
  CHECK_THAT(set.rejected[0].reason,
             Catch::Contains("category 'test_shared' is already claimed by") &&
                 Catch::Contains("loupe_test_duplicate_a.so"));
}

TEST_CASE("a file that is not a shared library is rejected, others still load", "[loader]") {
  loupe::test::TempDir tmp;
  loupe::test::write_text(tmp.path() / "notes.so", "this is not an ELF file\n");
  loupe::test::write_text(tmp.path() / "README.md", "ignored: not a library name\n");
  fs::copy_file(case_dir("good") / "loupe_test_good.so", tmp.path() / "loupe_test_good.so");
  const auto set = discover_plugins({tmp.path()});
  REQUIRE(set.plugins.size() == 1);
  REQUIRE(set.rejected.size() == 1);
  CHECK(set.rejected[0].path.filename() == "notes.so");
  CHECK_THAT(set.rejected[0].reason, Catch::Contains("not a loadable shared library"));
}

TEST_CASE("the same file reached through two directories loads once", "[loader]") {
  const auto set = discover_plugins({case_dir("good"), case_dir("good") / ".." / "good"});
  CHECK(set.plugins.size() == 1);
  CHECK(set.rejected.empty());
}

TEST_CASE("missing directories in the search path are skipped", "[loader]") {
  const auto set = discover_plugins({fs::path("/nonexistent/loupe/plugins"), case_dir("good")});
  CHECK(set.plugins.size() == 1);
}
