// Contributing analyzers (docs/plugin-abi.md, "Contributing analyzers"): a plugin that declares a
// category in `contributes` (ABI 1.2) runs beside the category's primary analyzer, writes its own
// <cat>.<plugin> files, and its cards enter findings.json and analysis.md with its name and
// version. One that crashes, hangs or emits an invalid document fails only its contribution.
// Purpose-built plugins (tests/plugins/CMakeLists.txt): test_compute is the primary of
// test_compute; test_contrib_a and test_contrib_b contribute to it (directory contributes_two);
// test_contrib_crash, test_contrib_hang and test_contrib_invalid are hostile contributors.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <string>

#include <rapidjson/document.h>

#include "cli_runner.hpp"

namespace fs = std::filesystem;
using loupe::test::read_text;
using loupe::test::run_loupe;
using loupe::test::TempDir;
using loupe::test::write_text;

namespace {

std::string plugin_dir(const char* name) {
  return (loupe::test::test_plugin_dir() / name).string();
}

void write_manifest(const fs::path& dir) {
  write_text(dir / "category_data" / "category_manifest.json",
             R"({"platform": "MI300X", "comparison_scope": "standalone", "categories": [
  {"name": "test_compute", "tier": "compute_kernel"}]})");
}

rapidjson::Document parse_file(const fs::path& path) {
  rapidjson::Document doc;
  doc.Parse(read_text(path).c_str());
  REQUIRE(doc.IsObject());
  return doc;
}

// plugin name -> its record of category test_compute in loupe_run.json.
std::map<std::string, const rapidjson::Value*> records(const rapidjson::Document& run) {
  std::map<std::string, const rapidjson::Value*> out;
  for (const auto& p : run["plugins"].GetArray()) {
    for (const auto& c : p["categories"].GetArray()) {
      if (std::string(c["category"].GetString()) == "test_compute") {
        out[p["name"].GetString()] = &c;
      }
    }
  }
  return out;
}

// The primary's outputs, which no contributor may change.
struct PrimaryFiles {
  std::string metrics;
  std::string findings;
};
PrimaryFiles primary_files(const fs::path& out) {
  return {read_text(out / "category_data" / "test_compute_metrics.json"),
          read_text(out / "category_findings" / "test_compute_findings.md")};
}

PrimaryFiles run_primary_alone(const fs::path& in) {
  TempDir out;
  const auto r = run_loupe({"analyze", in.string(), "-o", out.path().string(), "--plugin-dir",
                            plugin_dir("good_compute")});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  return primary_files(out.path());
}

}  // namespace

TEST_CASE("contributing analyzers run beside the primary and their cards carry their name",
          "[cli][contributing]") {
  TempDir in, out;
  write_manifest(in.path());
  const PrimaryFiles alone = run_primary_alone(in.path());

  const auto r =
      run_loupe({"analyze", in.path().string(), "-o", out.path().string(), "--plugin-dir",
                 plugin_dir("good_compute"), "--plugin-dir", plugin_dir("contributes_two")});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);

  // The primary's files are what it writes alone; each contributor has its own pair.
  const PrimaryFiles with = primary_files(out.path());
  CHECK(with.metrics == alone.metrics);
  CHECK(with.findings == alone.findings);
  for (const char* plugin : {"test_contrib_a", "test_contrib_b"}) {
    INFO(plugin);
    const std::string stem = std::string("test_compute.") + plugin;
    CHECK(fs::is_regular_file(out.path() / "category_data" / (stem + "_metrics.json")));
    const std::string md = read_text(out.path() / "category_findings" / (stem + "_findings.md"));
    CHECK_THAT(md, Catch::Contains("Slow op"));
  }

  // loupe_run.json: the primary keeps its record; each contribution is recorded as one, with
  // its own files, and listed among the run's outputs.
  const auto run = parse_file(out.path() / "loupe_run.json");
  const auto rec = records(run);
  REQUIRE(rec.size() == 3);
  REQUIRE(rec.count("test_compute") == 1);
  CHECK_FALSE(rec.at("test_compute")->HasMember("role"));
  CHECK(std::string((*rec.at("test_compute"))["findings"].GetString()) ==
        "category_findings/test_compute_findings.md");
  for (const char* plugin : {"test_contrib_a", "test_contrib_b"}) {
    INFO(plugin);
    REQUIRE(rec.count(plugin) == 1);
    const auto& c = *rec.at(plugin);
    CHECK(std::string(c["role"].GetString()) == "contributing");
    CHECK(std::string(c["status"].GetString()) == "OK");
    CHECK(std::string(c["findings"].GetString()) ==
          "category_findings/test_compute." + std::string(plugin) + "_findings.md");
  }
  std::size_t listed = 0;
  for (const auto& o : run["outputs"]["analysis"].GetArray()) {
    if (std::string(o.GetString()).find("test_compute.test_contrib_") != std::string::npos) {
      ++listed;
    }
  }
  CHECK(listed == 4);

  // findings.json: three cards, distinct ids; the contributed ones name plugin and version.
  const auto findings = parse_file(out.path() / "findings.json");
  REQUIRE(findings["findings"].Size() == 3);
  std::map<std::string, std::string> id_of;
  for (const auto& f : findings["findings"].GetArray()) {
    const std::string plugin = f["plugin"].GetString();
    id_of[plugin] = f["id"].GetString();
    if (plugin == "test_compute") {
      CHECK_FALSE(f.HasMember("role"));
      // A dropped-in primary (found through --plugin-dir) names its version too.
      CHECK(std::string(f["plugin_version"].GetString()) == "0.0.1");
    } else {
      CHECK(std::string(f["role"].GetString()) == "contributing");
      CHECK(std::string(f["plugin_version"].GetString()) == "0.0.1");
      CHECK(std::string(f["category"].GetString()) == "test_compute");
      CHECK(std::string(f["sources"]["files"][1].GetString()) ==
            "category_findings/test_compute." + plugin + "_findings.md");
    }
  }
  REQUIRE(id_of.size() == 3);
  CHECK(id_of["test_contrib_a"] != id_of["test_contrib_b"]);
  CHECK(id_of["test_contrib_a"] != id_of["test_compute"]);
  std::size_t contributed_categories = 0;
  for (const auto& c : findings["categories"].GetArray()) {
    if (c.HasMember("role")) ++contributed_categories;
  }
  CHECK(contributed_categories == 2);

  // analysis.md and report.html show them with the plugin's name and version.
  const std::string md = read_text(out.path() / "analysis.md");
  CHECK_THAT(md, Catch::Contains("## Contributed Findings"));
  CHECK_THAT(md, Catch::Contains("plugin `test_contrib_a` 0.0.1"));
  CHECK_THAT(md, Catch::Contains("plugin `test_contrib_b` 0.0.1"));
  const std::string html = read_text(out.path() / "report.html");
  CHECK_THAT(html, Catch::Contains("contributed by test_contrib_a 0.0.1"));

  // `loupe plugins` lists what each contributes to.
  const auto listing = run_loupe({"plugins", "--plugin-dir", plugin_dir("contributes_two")});
  CHECK_THAT(listing.out, Catch::Contains("contributes to: test_compute"));
}

TEST_CASE("a contributor that crashes, hangs or emits an invalid document fails only itself",
          "[cli][contributing]") {
  TempDir in, out;
  write_manifest(in.path());
  const PrimaryFiles alone = run_primary_alone(in.path());

  const auto r = run_loupe({"analyze", in.path().string(), "-o", out.path().string(),
                            "--plugin-timeout", "5", "--plugin-dir", plugin_dir("good_compute"),
                            "--plugin-dir", plugin_dir("contributes_hostile")});
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);  // an analyzer failed: said, and the exit code says so

  const PrimaryFiles with = primary_files(out.path());
  CHECK(with.metrics == alone.metrics);
  CHECK(with.findings == alone.findings);

  const auto run = parse_file(out.path() / "loupe_run.json");
  const auto rec = records(run);
  for (const auto& f : run["plugin_files"].GetArray()) {
    INFO(f["path"].GetString() << ": " << f["state"].GetString());
    CHECK(std::string(f["state"].GetString()) == "loaded");
  }
  REQUIRE(rec.size() == 4);
  CHECK(std::string((*rec.at("test_compute"))["status"].GetString()) == "OK");
  for (const char* plugin : {"test_contrib_crash", "test_contrib_hang", "test_contrib_invalid"}) {
    INFO(plugin);
    REQUIRE(rec.count(plugin) == 1);
    CHECK(std::string((*rec.at(plugin))["status"].GetString()) == "ERROR");
    CHECK(std::string((*rec.at(plugin))["role"].GetString()) == "contributing");
    // Its ERROR files are its own.
    CHECK(fs::is_regular_file(out.path() / "category_findings" /
                              ("test_compute." + std::string(plugin) + "_findings.md")));
  }
  CHECK_THAT((*rec.at("test_contrib_hang"))["message"].GetString(), Catch::Contains("timed out"));

  // Only the primary's card is in findings.json; the failures are warnings in analysis.md.
  const auto findings = parse_file(out.path() / "findings.json");
  REQUIRE(findings["findings"].Size() == 1);
  CHECK(std::string(findings["findings"][0]["plugin"].GetString()) == "test_compute");
  const std::string md = read_text(out.path() / "analysis.md");
  CHECK_THAT(md, Catch::Contains("test_compute (contribution of test_contrib_crash)"));
  CHECK_THAT(md, !Catch::Contains("## Contributed Findings"));
}

// The compatibility promise (docs/plugin-abi.md, "Compatibility promise"): plugins compiled
// against the frozen 1.0 and 1.1 headers (tests/abi/) load and run unchanged in this host.
TEST_CASE("plugins built against the frozen ABI 1.0 and 1.1 headers load and run",
          "[cli][abi-compat]") {
  TempDir in, out;
  write_text(in.path() / "category_data" / "category_manifest.json",
             R"({"platform": "MI300X", "comparison_scope": "standalone", "categories": [
  {"name": "frozen_abi10", "tier": "system"},
  {"name": "frozen_abi11", "tier": "system"},
  {"name": "frozen_by_skill", "tier": "system", "skill": "frozen-skill"}]})");
  const auto r = run_loupe({"analyze", in.path().string(), "-o", out.path().string(),
                            "--plugin-dir", plugin_dir("frozen_abi"), "--strict"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  const auto run = parse_file(out.path() / "loupe_run.json");
  std::map<std::string, std::string> abi;
  std::map<std::string, std::string> routed;
  for (const auto& p : run["plugins"].GetArray()) {
    abi[p["name"].GetString()] = p["abi"].GetString();
    for (const auto& c : p["categories"].GetArray()) {
      routed[c["category"].GetString()] = std::string(p["name"].GetString()) + " " +
                                          c["routed_by"].GetString() + " " +
                                          c["status"].GetString();
    }
  }
  CHECK(abi["frozen_abi10"] == "1.0");
  CHECK(abi["frozen_abi11"] == "1.1");
  CHECK(routed["frozen_abi10"] == "frozen_abi10 category NO_DATA");
  CHECK(routed["frozen_abi11"] == "frozen_abi11 category NO_DATA");
  CHECK(routed["frozen_by_skill"] == "frozen_abi11 skill NO_DATA");  // a 1.1 field, read
  // Each ran the code compiled against its own header.
  for (const auto& [name, minor] : {std::pair{"frozen_abi10", 0}, {"frozen_abi11", 1}}) {
    const auto metrics =
        parse_file(out.path() / "category_data" / (std::string(name) + "_metrics.json"));
    CHECK(metrics["built_abi_minor"].GetInt() == minor);
    CHECK_THAT(read_text(out.path() / "system_findings" / (std::string(name) + "_findings.md")),
               Catch::Contains("built against the frozen ABI 1." + std::to_string(minor)));
  }
}
