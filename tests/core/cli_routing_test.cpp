// Routing (docs/plugin-abi.md, "Routing"): a manifest category goes to the plugin that names
// it, else to the plugin that declares its manifest skill, else to its tier's fallback; the run
// record says which rule applied. Purpose-built plugins: test_skilled declares the skill
// "test-skill-analyzer", test_fallback is a compute-tier fallback (tests/plugins/CMakeLists.txt).
// The bundled analyzers are on the search path too, so the fallback that wins is whichever was
// found first: the test asks `loupe plugins --json` instead of assuming it.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "cli_runner.hpp"
#include "loupe/core/model/model.hpp"

namespace fs = std::filesystem;
using loupe::test::read_text;
using loupe::test::run_loupe;
using loupe::test::TempDir;
using loupe::test::write_text;

namespace {

std::string routing_dir() { return (loupe::test::test_plugin_dir() / "routing").string(); }

void write_routing_manifest(const fs::path& dir) {
  write_text(dir / "category_data" / "category_manifest.json",
             R"({"platform": "MI300X", "comparison_scope": "standalone", "categories": [
  {"name": "test_skilled", "tier": "compute_kernel", "skill": "test-skill-analyzer"},
  {"name": "routed_by_skill", "tier": "compute_kernel", "skill": "test-skill-analyzer"},
  {"name": "zz_never_seen", "tier": "compute_kernel", "skill": "no-such-analyzer"},
  {"name": "zz_system_unknown", "tier": "system", "skill": "no-such-analyzer"}]})");
}

// The name of the compute-tier fallback that `loupe plugins` loads with these directories.
std::string loaded_fallback(const std::vector<std::string>& dirs) {
  std::vector<std::string> args = {"plugins", "--json"};
  for (const auto& d : dirs) {
    args.push_back("--plugin-dir");
    args.push_back(d);
  }
  const auto r = run_loupe(args);
  REQUIRE(r.exit_code == 0);
  rapidjson::Document doc;
  doc.Parse(r.out.c_str());
  REQUIRE(doc.IsObject());
  for (const auto& p : doc["plugins"].GetArray()) {
    if (p["fallback"].GetBool() && std::string(p["tier"].GetString()) == "compute") {
      return p["name"].GetString();
    }
  }
  return {};
}

const rapidjson::Value* record(const rapidjson::Document& run, const std::string& category,
                               std::string& plugin) {
  for (const auto& p : run["plugins"].GetArray()) {
    for (const auto& c : p["categories"].GetArray()) {
      if (category == c["category"].GetString()) {
        plugin = p["name"].GetString();
        return &c;
      }
    }
  }
  return nullptr;
}

}  // namespace

TEST_CASE("routing: by name, by manifest skill, then the tier's fallback", "[cli][routing]") {
  TempDir in, out;
  write_routing_manifest(in.path());
  const std::string fallback = loaded_fallback({routing_dir()});
  REQUIRE_FALSE(fallback.empty());
  const auto r = run_loupe(
      {"analyze", in.path().string(), "-o", out.path().string(), "--plugin-dir", routing_dir()});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  rapidjson::Document run;
  run.Parse(read_text(out.path() / "loupe_run.json").c_str());
  REQUIRE(run.IsObject());

  std::string plugin;
  const auto* named = record(run, "test_skilled", plugin);
  REQUIRE(named != nullptr);
  CHECK(plugin == "test_skilled");
  CHECK(std::string((*named)["routed_by"].GetString()) == "category");

  const auto* by_skill = record(run, "routed_by_skill", plugin);
  REQUIRE(by_skill != nullptr);
  CHECK(plugin == "test_skilled");
  CHECK(std::string((*by_skill)["routed_by"].GetString()) == "skill");
  // The plugin analyzed the category it was given, not one of its own.
  CHECK_THAT(read_text(out.path() / "category_data" / "routed_by_skill_metrics.json"),
             Catch::Contains("\"category\": \"routed_by_skill\""));
  CHECK(fs::exists(out.path() / "category_findings" / "routed_by_skill_findings.md"));

  const auto* unknown = record(run, "zz_never_seen", plugin);
  REQUIRE(unknown != nullptr);
  CHECK(plugin == fallback);
  CHECK(std::string((*unknown)["routed_by"].GetString()) == "fallback");

  // No system-tier fallback is loaded: that category stays unhandled, and is said to be.
  CHECK(record(run, "zz_system_unknown", plugin) == nullptr);
  CHECK_THAT(r.out, Catch::Contains("no plugin for: zz_system_unknown"));
}

TEST_CASE("routing: --only reaches the fallback for a compute table no one names",
          "[cli][routing]") {
  TempDir in, out;
  write_routing_manifest(in.path());
  const std::string fallback = loaded_fallback({routing_dir()});
  write_text(in.path() / "category_data" / "zz_extra_ops.csv", "name,Kernel Time (µs)_sum\nop,1\n");
  auto r = run_loupe({"analyze", in.path().string(), "-o", out.path().string(), "-q",
                      "--plugin-dir", routing_dir(), "--only", "zz_extra"});
  INFO(r.out << r.err);
  // The fallback analyzes it (the bundled generic analyzer reports ERROR for the missing
  // metadata, the test one OK): either way the category reached the fallback.
  REQUIRE(r.exit_code != 2);
  rapidjson::Document run;
  run.Parse(read_text(out.path() / "loupe_run.json").c_str());
  std::string plugin;
  const auto* extra = record(run, "zz_extra", plugin);
  REQUIRE(extra != nullptr);
  CHECK(plugin == fallback);

  // A name that is neither in the manifest nor a table of the directory has no analyzer.
  r = run_loupe({"analyze", in.path().string(), "-o", out.path().string(), "-q", "--plugin-dir",
                 routing_dir(), "--only", "zz_nowhere"});
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("no loaded plugin handles category 'zz_nowhere'"));
}

TEST_CASE("routing: a second fallback of the same tier is shadowed", "[cli][routing]") {
  const auto second = (loupe::test::test_plugin_dir() / "second_fallback").string();
  const auto r = run_loupe({"plugins", "--plugin-dir", routing_dir(), "--plugin-dir", second});
  INFO(r.out << r.err);
  CHECK_THAT(r.out, Catch::Contains("Shadowed (") &&
                        Catch::Contains("the compute-tier fallback is served by plugin"));
  CHECK_THAT(r.out, Catch::Contains("(fallback for other compute categories)"));
}
