// Vendor analyzers on pack traces (docs/plugin-abi.md, "Contributing analyzers"): a GEMM
// contributor dropped into --plugin-dir (tests/plugins: vendor_gemm, behaviour 26, claims the GPU
// ops of the primary's first GEMM finding with half their measured time) has its card ranked in
// findings.json with its name and version, the time ledger keeps one owner per GPU op, every file
// the bundled analyzers write is byte-identical to a run without it, and analysis.md validates.
#include <cmath>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <rapidjson/document.h>
#include <catch2/catch.hpp>

#include "cli_runner.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;
using loupe::test::read_text;
using loupe::test::run_loupe;
using loupe::test::TempDir;

namespace {

rapidjson::Document parse_file(const fs::path& path) {
  rapidjson::Document doc;
  doc.Parse(read_text(path).c_str());
  REQUIRE(doc.IsObject());
  return doc;
}

// Files of a run written by the analyzers (per category), and priority_data.json unless
// `numbered` is false (its run_priority follows findings.json, where a contribution ranks too).
std::vector<std::string> analyzer_files(const rapidjson::Document& run, bool numbered = false) {
  std::vector<std::string> out;
  for (const auto& f : run["outputs"]["analysis"].GetArray()) {
    const std::string name = f.GetString();
    if (name.rfind("category_data/", 0) == 0 || name.rfind("category_findings/", 0) == 0 ||
        name.rfind("system_findings/", 0) == 0 || (numbered && name == "priority_data.json")) {
      out.push_back(name);
    }
  }
  return out;
}

}  // namespace

TEST_CASE("a vendor GEMM contributor's card is ranked in findings.json beside the bundled ones",
          "[vendor][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  const std::vector<fs::path> traces = {
      shared / "data/traces/h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz",
      shared / "data/traces/mi300/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz"};
  const std::string vendor_dir = (loupe::test::test_plugin_dir() / "contributes_gemm").string();
  std::size_t checked = 0;
  for (const auto& trace : traces) {
    INFO(trace.string());
    REQUIRE(fs::is_regular_file(trace));
    TempDir plain, vendor;
    const auto a =
        run_loupe({"analyze", "--trace", trace.string(), "-o", plain.path().string(), "-q"});
    INFO(a.err);
    REQUIRE(a.exit_code == 0);
    const auto b = run_loupe({"analyze", "--trace", trace.string(), "-o", vendor.path().string(),
                              "-q", "--plugin-dir", vendor_dir});
    INFO(b.err);
    REQUIRE(b.exit_code == 0);

    // (1) The bundled analyzers' files are byte-identical; priority_data.json only renumbers.
    const auto plain_run = parse_file(plain.path() / "loupe_run.json");
    const auto files = analyzer_files(plain_run);
    REQUIRE(files.size() >= 10);
    for (const auto& f : files) {
      INFO(f);
      CHECK(read_text(vendor.path() / f) == read_text(plain.path() / f));
    }
    CHECK(fs::is_regular_file(vendor.path() / "category_findings/gemm.vendor_gemm_findings.md"));

    // (2) The contributed card: ranked, named, with the saving it stated (half the measured time
    // of the primary's first finding's members).
    const auto gemm = parse_file(vendor.path() / "category_data/gemm_metrics.json");
    double members_ms = 0.0;
    for (const auto& m : gemm["category_findings"][0]["members"].GetArray()) {
      members_ms += m["time_ms"].GetDouble();
    }
    REQUIRE(members_ms > 0.0);
    const auto doc = parse_file(vendor.path() / "findings.json");
    const rapidjson::Value* contributed = nullptr;
    std::set<std::int64_t> owned;
    for (const auto& f : doc["findings"].GetArray()) {
      if (f.HasMember("role")) {
        CHECK(contributed == nullptr);
        contributed = &f;
      }
      if (f["owns"].IsObject() && f["owns"].HasMember("kernel_uids")) {
        for (const auto& k : f["owns"]["kernel_uids"].GetArray()) {
          CHECK(owned.insert(k.GetInt64()).second);  // one owner per GPU op
        }
      }
    }
    REQUIRE(contributed != nullptr);
    const auto& c = *contributed;
    CHECK(std::string(c["plugin"].GetString()) == "vendor_gemm");
    CHECK(std::string(c["plugin_version"].GetString()) == "0.0.1");
    CHECK(std::string(c["role"].GetString()) == "contributing");
    CHECK(std::string(c["category"].GetString()) == "gemm");
    CHECK(c["priority"].GetInt64() >= 1);
    CHECK(std::abs(c["stated_saving_ms"]["mid"].GetDouble() - members_ms * 0.5) < 0.002);
    // What it owns caps its saving.
    REQUIRE(c["owns"].IsObject());
    CHECK(c["owns"]["kernel_count"].GetInt64() > 0);
    CHECK(c["saving_ms"]["high"].GetDouble() <= c["owns"]["kernel_time_ms"].GetDouble() + 0.0015);
    // The plain run's GEMM findings are all still there, as cards or as parts of others.
    auto bundled_gemm = [](const rapidjson::Document& d) {
      std::size_t n = 0;
      auto bundled = [](const rapidjson::Value& f) {
        return std::string(f["category"].GetString()) == "gemm" && !f.HasMember("role");
      };
      for (const auto& f : d["findings"].GetArray()) {
        if (bundled(f)) ++n;
        for (const auto& p : f["parts"].GetArray()) n += bundled(p) ? 1 : 0;
      }
      return n;
    };
    const auto plain_doc = parse_file(plain.path() / "findings.json");
    const std::size_t plain_gemm = bundled_gemm(plain_doc);
    const std::size_t vendor_gemm = bundled_gemm(doc);
    CHECK(plain_gemm >= 1);
    CHECK(vendor_gemm == plain_gemm);

    // priority_data.json lists the primary's GEMM findings, never the contributed card.
    const auto priority = parse_file(vendor.path() / "priority_data.json");
    std::size_t gemm_entries = 0;
    for (const auto& e : priority["findings"].GetArray()) {
      if (std::string(e["category"].GetString()) != "gemm") continue;
      ++gemm_entries;
      CHECK_FALSE((e["finding_id"].IsString() &&
                   std::string(e["finding_id"].GetString()) == c["id"].GetString()));
    }
    CHECK(gemm_entries >= 1);

    // (3) analysis.md shows it and still validates.
    const std::string md = read_text(vendor.path() / "analysis.md");
    CHECK_THAT(md, Catch::Contains("## Contributed Findings"));
    CHECK_THAT(md, Catch::Contains("### P" + std::to_string(c["priority"].GetInt64()) +
                                   ": Vendor GEMM library would run these GEMMs faster"));
    const auto v = run_loupe({"validate", "--report", vendor.path().string()});
    INFO(v.out);
    CHECK(v.exit_code == 0);
    ++checked;
  }
  CHECK(checked == traces.size());
}

TEST_CASE("--prefer and the configuration file make a vendor GEMM analyzer the primary",
          "[vendor][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  const fs::path trace = shared / "data/traces/h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz";
  REQUIRE(fs::is_regular_file(trace));
  const std::string vendor_dir = (loupe::test::test_plugin_dir() / "vendor_primary").string();
  TempDir home, empty_home, plain;
  const std::vector<std::string> env = {"XDG_CONFIG_HOME=" + empty_home.path().string()};
  const auto a = loupe::test::run_process(
      loupe::test::loupe_exe(),
      {"analyze", "--trace", trace.string(), "-o", plain.path().string(), "-q"}, env);
  REQUIRE(a.exit_code == 0);
  const auto plain_run = parse_file(plain.path() / "loupe_run.json");

  loupe::test::write_text(home.path() / "loupe" / "config.json",
                          R"({"prefer": ["vendor_gemm_primary:gemm"]})");
  const std::string config = (home.path() / "loupe" / "config.json").string();
  struct Way {
    std::vector<std::string> args;
    std::vector<std::string> env;
    std::string source;
  };
  const std::vector<Way> ways = {
      {{"--prefer", "vendor_gemm_primary"}, env, "--prefer"},
      {{"--config", config}, env, config},
      {{}, {"XDG_CONFIG_HOME=" + home.path().string()}, config},
  };
  for (const auto& way : ways) {
    INFO(way.source);
    TempDir out;
    std::vector<std::string> args = {"analyze",      "--trace",           trace.string(),
                                     "-o",           out.path().string(), "-q",
                                     "--plugin-dir", vendor_dir,          "--strict"};
    args.insert(args.end(), way.args.begin(), way.args.end());
    const auto r = loupe::test::run_process(loupe::test::loupe_exe(), args, way.env);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const auto run = parse_file(out.path() / "loupe_run.json");
    REQUIRE(run.HasMember("displaced"));
    REQUIRE(run["displaced"].Size() == 1);
    CHECK(std::string(run["displaced"][0]["category"].GetString()) == "gemm");
    CHECK(std::string(run["displaced"][0]["plugin"].GetString()) == "gemm");
    CHECK(std::string(run["displaced"][0]["source"].GetString()) == way.source);
    std::string gemm_by;
    for (const auto& p : run["plugins"].GetArray()) {
      for (const auto& c : p["categories"].GetArray()) {
        if (std::string(c["category"].GetString()) == "gemm") gemm_by = p["name"].GetString();
      }
    }
    CHECK(gemm_by == "vendor_gemm_primary");
    // The vendor's files are the category's; the other analyzers' files are unchanged.
    CHECK_THAT(read_text(out.path() / "category_findings/gemm_findings.md"),
               Catch::Contains("Slow op"));
    std::size_t same = 0;
    for (const auto& f : analyzer_files(plain_run)) {
      if (f.find("gemm") != std::string::npos || f == "priority_data.json") continue;
      INFO(f);
      CHECK(read_text(out.path() / f) == read_text(plain.path() / f));
      ++same;
    }
    CHECK(same >= 8);
    const auto doc = parse_file(out.path() / "findings.json");
    std::size_t vendor_cards = 0;
    for (const auto& f : doc["findings"].GetArray()) {
      if (std::string(f["category"].GetString()) != "gemm") continue;
      CHECK(std::string(f["plugin"].GetString()) == "vendor_gemm_primary");
      ++vendor_cards;
    }
    CHECK(vendor_cards == 1);
  }
}
