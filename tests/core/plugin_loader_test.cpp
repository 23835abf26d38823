// Plugin discovery: the good plugin loads; every broken or hostile one becomes a recorded
// rejection (or shadowing) with a clear reason, and the process doing the discovery survives.
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>

#include "cli_runner.hpp"
#include "loupe/core/plugin/plugin_registry.hpp"

namespace fs = std::filesystem;
using loupe::core::discover_plugins;
using loupe::core::PluginState;

namespace {
fs::path case_dir(const std::string& name) { return loupe::test::test_plugin_dir() / name; }

loupe::core::DiscoveryOptions quick() {
  loupe::core::DiscoveryOptions options;
  options.timeout = std::chrono::seconds(2);
  return options;
}

std::string single_rejection(const std::string& name) {
  const auto set = discover_plugins({case_dir(name)}, quick());
  REQUIRE(set.plugins.empty());
  REQUIRE(set.found.size() == 1);
  CHECK(set.found[0].state == PluginState::Rejected);
  return set.found[0].reason;
}
}  // namespace

TEST_CASE("a good plugin loads with its descriptor", "[loader]") {
  const auto set =
      discover_plugins({case_dir("good"), case_dir("good_compute"), case_dir("reader")});
  CHECK(set.count(PluginState::Rejected) == 0);
  REQUIRE(set.plugins.size() == 3);
  const auto& good = set.plugins[0];
  CHECK(good.name == "test_good");
  CHECK(good.version == "0.0.1");
  CHECK(good.abi_major == LOUPE_ABI_MAJOR);
  CHECK(good.tier == loupe::Tier::System);
  CHECK(good.categories == std::vector<std::string>{"test_good"});
  CHECK(good.path.filename() == "loupe_test_good.so");
  CHECK(set.plugins[1].tier == loupe::Tier::Compute);
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
  CHECK_THAT(single_rejection("newer_host"), Catch::Contains("needs host services of ABI 1." +
                                                             std::to_string(LOUPE_ABI_MINOR + 7)));
  CHECK_THAT(single_rejection("no_categories"), Catch::Contains("declares no category"));
  CHECK_THAT(single_rejection("escaping_category"), Catch::Contains("invalid category name"));
}

TEST_CASE("plugins that crash or hang while loading are rejected; the host survives", "[loader]") {
  for (const char* name :
       {"entry_segfaults", "constructor_segfaults", "entry_is_data", "garbage_descriptor"}) {
    INFO(name);
    CHECK_THAT(single_rejection(name),
               Catch::Contains("crashed with signal") && Catch::Contains("while being loaded"));
  }
  const auto start = std::chrono::steady_clock::now();
  CHECK_THAT(single_rejection("entry_hangs"), Catch::Contains("timed out after 2.0 s"));
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(8));
}

TEST_CASE("a plugin's entry point runs sandboxed: it cannot write files", "[loader]") {
  loupe::test::TempDir tmp;
  const fs::path target = tmp.path() / "written_by_entry.txt";
  ::setenv("LOUPE_TEST_WRITE_PATH", target.c_str(), 1);
  const auto set = discover_plugins({case_dir("entry_writes")}, quick());
  ::unsetenv("LOUPE_TEST_WRITE_PATH");
  REQUIRE(set.plugins.size() == 1);  // a valid plugin; only its write was refused
  if (std::getenv("LOUPE_NO_LANDLOCK") == nullptr) CHECK_FALSE(fs::exists(target));
}

TEST_CASE("two plugins claiming one category: the second is shadowed", "[loader]") {
  const auto set = discover_plugins({case_dir("duplicate")});
  REQUIRE(set.plugins.size() == 1);
  CHECK(set.plugins[0].name == "test_dup_a");
  REQUIRE(set.found.size() == 2);
  CHECK(set.found[1].path.filename() == "loupe_test_duplicate_b.so");
  CHECK(set.found[1].state == PluginState::Shadowed);
  CHECK(set.found[1].shadowed_by == "test_dup_a");
  CHECK_THAT(set.found[1].reason, Catch::Contains("category 'test_shared' is handled by plugin "
                                                  "'test_dup_a'") &&
                                      Catch::Contains("loupe_test_duplicate_a.so"));
}

TEST_CASE("bundled plugins come first: a drop-in cannot take their categories or names",
          "[loader]") {
  const auto search =
      loupe::core::plugin_search_path({case_dir("claims_conv_fwd"), case_dir("named_conv")});
  REQUIRE_FALSE(search.empty());
  CHECK(search.front().origin == loupe::core::SearchOrigin::Bundled);
  // The test binary is not next to the bundled plugins: name their directory explicitly first.
  const auto set = discover_plugins(
      {loupe::test::bundled_plugin_dir(), case_dir("claims_conv_fwd"), case_dir("named_conv")});
  REQUIRE(set.find_by_category("conv_fwd") != nullptr);
  CHECK(set.find_by_category("conv_fwd")->name == "conv");
  CHECK(set.count(PluginState::Shadowed) == 2);
  for (const auto& f : set.found) {
    if (f.state == PluginState::Shadowed) CHECK(f.shadowed_by == "conv");
  }
}

TEST_CASE("a file that is not a shared library is rejected, others still load", "[loader]") {
  loupe::test::TempDir tmp;
  loupe::test::write_text(tmp.path() / "notes.so", "this is not an ELF file\n");
  loupe::test::write_text(tmp.path() / "README.md", "ignored: not a library name\n");
  fs::copy_file(case_dir("good") / "loupe_test_good.so", tmp.path() / "loupe_test_good.so");
  const auto set = discover_plugins({tmp.path()});
  REQUIRE(set.plugins.size() == 1);
  REQUIRE(set.count(PluginState::Rejected) == 1);
  REQUIRE(set.found.size() == 2);
  CHECK(set.found[0].path.filename() == "loupe_test_good.so");
  CHECK(set.found[1].path.filename() == "notes.so");
  CHECK_THAT(set.found[1].reason, Catch::Contains("not a loadable shared library"));
}

TEST_CASE("the same file reached through two directories loads once", "[loader]") {
  const auto set = discover_plugins({case_dir("good"), case_dir("good") / ".." / "good"});
  CHECK(set.plugins.size() == 1);
  CHECK(set.found.size() == 1);
}

TEST_CASE("missing directories are reported, the others still searched", "[loader]") {
  const auto set = discover_plugins({fs::path("/nonexistent/loupe/plugins"), case_dir("good")});
  CHECK(set.plugins.size() == 1);
  REQUIRE(set.missing_dirs.size() == 1);
  CHECK(set.missing_dirs[0] == fs::path("/nonexistent/loupe/plugins"));
}

TEST_CASE("a 1.2 descriptor from before selectors keeps its meaning; a NULL selector is refused",
          "[loader]") {
  // struct_size ends at contribute_count: the garbage after it is never read.
  const auto set = loupe::core::discover_plugins(
      std::vector<fs::path>{loupe::test::test_plugin_dir() / "pre_selectors"}, {});
  REQUIRE(set.plugins.size() == 1);
  CHECK(set.plugins[0].name == "test_raw_pre_selectors");
  CHECK(set.plugins[0].selectors.empty());
  CHECK(set.selector_errors.empty());
  CHECK_THAT(single_rejection("null_selector"),
             Catch::Contains("descriptor selector 0 is NULL or too small"));
}

TEST_CASE("in the bundled directory Loupe's own plugins come first, whatever sorts before them",
          "[loader]") {
  // A packaged plugin installed beside the bundled ones, claiming a bundled plugin's category,
  // with a file name that sorts first.
  loupe::test::TempDir tmp;
  fs::copy_file(case_dir("duplicate") / "loupe_test_duplicate_a.so",
                tmp.path() / "loupe_test_duplicate_a.so");
  fs::copy_file(case_dir("duplicate") / "loupe_test_duplicate_b.so", tmp.path() / "acme_b.so");
  const auto bundled =
      discover_plugins({{tmp.path(), loupe::core::SearchOrigin::Bundled}}, quick());
  REQUIRE(bundled.find_by_category("test_shared") != nullptr);
  CHECK(bundled.find_by_category("test_shared")->name == "test_dup_a");
  CHECK(bundled.count(PluginState::Shadowed) == 1);
  // Anywhere else, the first file found keeps the category.
  const auto dropped =
      discover_plugins({{tmp.path(), loupe::core::SearchOrigin::Explicit}}, quick());
  REQUIRE(dropped.find_by_category("test_shared") != nullptr);
  CHECK(dropped.find_by_category("test_shared")->name == "test_dup_b");
}
