// `loupe analyze` end to end with purpose-built plugins: isolation of crashes, hangs and
// exceptions, dependency order, exit codes, atomic outputs and the run record.
#include <catch2/catch.hpp>

#include <filesystem>

#include "cli_runner.hpp"
#include "loupe/abi.h"
#include "loupe/core/model/model.hpp"

namespace fs = std::filesystem;
using loupe::test::read_text;
using loupe::test::run_loupe;
using loupe::test::TempDir;
using loupe::test::write_manifest;

namespace {

std::vector<std::string> plugin_dirs(const std::vector<std::string>& cases) {
  std::vector<std::string> args;
  for (const auto& c : cases) {
    args.push_back("--plugin-dir");
    args.push_back((loupe::test::test_plugin_dir() / c).string());
  }
  return args;
}

std::vector<std::string> analyze_args(const fs::path& in, const fs::path& out,
                                      const std::vector<std::string>& cases,
                                      std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"analyze", in.string(), "-o", out.string()};
  const auto dirs = plugin_dirs(cases);
  args.insert(args.end(), dirs.begin(), dirs.end());
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

const rapidjson::Value& category_record(const rapidjson::Document& run, const std::string& cat) {
  for (const auto& plugin : run["plugins"].GetArray()) {
    for (const auto& c : plugin["categories"].GetArray()) {
      if (cat == c["category"].GetString()) return c;
    }
  }
  FAIL("no record for " << cat);
  throw std::logic_error("unreachable");
}

}  // namespace

TEST_CASE("a good plugin's outputs are written and the run succeeds", "[cli]") {
  TempDir in, out;
  write_manifest(in.path(), {"test_good"});
  const auto r = run_loupe(analyze_args(in.path(), out.path(), {"good"}));
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("OK, 1 finding\ttest_good"));
  const std::string metrics = read_text(out.path() / "category_data" / "test_good_metrics.json");
  CHECK_THAT(metrics, Catch::StartsWith("{\n  \"category\": \"test_good\",\n  \"status\": \"OK\",\n"
                                        "  \"answer\": 42,"));
  const std::string md = read_text(out.path() / "system_findings" / "test_good_findings.md");
  CHECK_THAT(md, Catch::Contains("### P1: Synthetic issue"));
  const auto run = loupe::core::parse_json_document(read_text(out.path() / "loupe_run.json"));
  CHECK(std::string((*run)["status"].GetString()) == "OK");
  CHECK(std::string((*run)["plugins"][0]["name"].GetString()) == "test_good");
  CHECK(std::string((*run)["plugins"][0]["abi"].GetString()) ==
        "1." + std::to_string(LOUPE_ABI_MINOR));
  CHECK(std::string(category_record(*run, "test_good")["status"].GetString()) == "OK");
  CHECK(category_record(*run, "test_good")["findings_count"].GetInt() == 1);
  // Inputs are never touched: nothing new appears in the input directory.
  CHECK_FALSE(fs::exists(in.path() / "loupe_run.json"));
  CHECK_FALSE(fs::exists(in.path() / "system_findings"));
}

TEST_CASE("crash, abort, exception, hang and invalid output only fail their own category",
          "[cli][isolation]") {
  TempDir in, out;
  const std::vector<std::string> categories = {
      "test_good",  "test_segfaults",        "test_aborts",       "test_throws",
      "test_hangs", "test_invalid_findings", "test_reports_error"};
  write_manifest(in.path(), categories);
  const auto r = run_loupe(analyze_args(
      in.path(), out.path(),
      {"good", "segfaults", "aborts", "throws", "hangs", "invalid_findings", "reports_error"},
      {"--plugin-timeout", "1.5"}));
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 1);
  const auto run = loupe::core::parse_json_document(read_text(out.path() / "loupe_run.json"));
  CHECK(std::string(category_record(*run, "test_good")["status"].GetString()) == "OK");
  const std::vector<std::pair<std::string, std::string>> expected_errors = {
      {"test_segfaults", "crashed with signal 11"},
      {"test_aborts", "crashed with signal 6"},
      {"test_throws", "unhandled exception in analyzer: deliberate failure in test plugin"},
      {"test_hangs", "timed out after 1.5 s and was killed"},
      {"test_invalid_findings", "one entry per finding"},
      {"test_reports_error", "input file category_data/x.json is missing"}};
  for (const auto& [category, reason] : expected_errors) {
    INFO(category);
    const auto& rec = category_record(*run, category);
    CHECK(std::string(rec["status"].GetString()) == "ERROR");
    CHECK_THAT(std::string(rec["message"].GetString()), Catch::Contains(reason));
    const auto metrics = loupe::core::parse_json_document(
        read_text(out.path() / "category_data" / (category + "_metrics.json")));
    CHECK(std::string((*metrics)["status"].GetString()) == "ERROR");
    CHECK_THAT(std::string((*metrics)["error"].GetString()), Catch::Contains(reason));
    const std::string md = read_text(out.path() / "system_findings" / (category + "_findings.md"));
    CHECK_THAT(md, Catch::Contains("**Status**: ERROR") && Catch::Contains(reason));
  }
  // The ERROR findings files are themselves valid for Loupe's validator.
  const auto v = run_loupe(
      {"validate", (out.path() / "system_findings" / "test_segfaults_findings.md").string(),
       "--tier", "system"});
  CHECK(v.exit_code == 0);
}

TEST_CASE("a plugin that reads another category runs after it and sees its metrics", "[cli]") {
  TempDir in, out;
  write_manifest(in.path(), {"test_reader", "test_good"});
  // The reader is found first in the search path, but must run second.
  const auto r = run_loupe(analyze_args(in.path(), out.path(), {"reader", "good"}));
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto metrics = loupe::core::parse_json_document(
      read_text(out.path() / "category_data" / "test_reader_metrics.json"));
  CHECK((*metrics)["read_answer"].GetInt() == 42);
  const auto run = loupe::core::parse_json_document(read_text(out.path() / "loupe_run.json"));
  CHECK(std::string((*run)["plugins"][0]["name"].GetString()) == "test_good");
  CHECK(std::string((*run)["plugins"][1]["name"].GetString()) == "test_reader");
}

TEST_CASE("a metrics file left in the input for a category of this run is never read", "[cli]") {
  TempDir in, out;
  write_manifest(in.path(), {"test_reader", "test_good"});
  loupe::test::write_text(in.path() / "category_data" / "test_good_metrics.json",
                          R"({"category": "test_good", "status": "OK", "answer": 7})");
  // Only test_reader is analyzed: test_good's file is an input, and the reader sees it.
  auto r =
      run_loupe(analyze_args(in.path(), out.path(), {"reader", "good"}, {"--only", "test_reader"}));
  REQUIRE(r.exit_code == 0);
  auto metrics = loupe::core::parse_json_document(
      read_text(out.path() / "category_data" / "test_reader_metrics.json"));
  CHECK((*metrics)["read_answer"].GetInt() == 7);
  // Both analyzed: the reader sees this run's 42, not the stale 7.
  r = run_loupe(analyze_args(in.path(), out.path(), {"reader", "good"}));
  REQUIRE(r.exit_code == 0);
  metrics = loupe::core::parse_json_document(
      read_text(out.path() / "category_data" / "test_reader_metrics.json"));
  CHECK((*metrics)["read_answer"].GetInt() == 42);
}

TEST_CASE("--no-isolate runs in process with the same results", "[cli]") {
  TempDir in, out;
  write_manifest(in.path(), {"test_good", "test_throws"});
  const auto r =
      run_loupe(analyze_args(in.path(), out.path(), {"good", "throws"}, {"--no-isolate"}));
  CHECK(r.exit_code == 1);
  CHECK_THAT(read_text(out.path() / "category_data" / "test_throws_metrics.json"),
             Catch::Contains("deliberate failure"));
  CHECK_THAT(read_text(out.path() / "category_data" / "test_good_metrics.json"),
             Catch::Contains("\"answer\": 42"));
}

TEST_CASE("--only, --compat and --scope reach the plugin", "[cli]") {
  TempDir in, out;
  write_manifest(in.path(), {});
  const auto r = run_loupe(
      analyze_args(in.path(), out.path(), {"good"},
                   {"--only", "test_good", "--compat", "tracelens", "--scope", "comparative"}));
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const std::string metrics = read_text(out.path() / "category_data" / "test_good_metrics.json");
  CHECK_THAT(metrics,
             Catch::Contains("\"compat\": true") && Catch::Contains("\"scope\": \"comparative\""));
}

TEST_CASE("manifest categories without a plugin are reported, not fatal", "[cli]") {
  TempDir in, out;
  // A category no bundled plugin claims (gemm has its own analyzer now).
  write_manifest(in.path(), {"test_good", "unclaimed_category"});
  const auto r = run_loupe(analyze_args(in.path(), out.path(), {"good"}));
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("no plugin for: unclaimed_category"));
  CHECK_THAT(read_text(out.path() / "loupe_run.json"),
             Catch::Contains("\"unhandled_categories\": [\n    \"unclaimed_category\"\n  ]"));
}

TEST_CASE("usage and input errors exit 2 with a message naming the problem", "[cli]") {
  TempDir in, out;
  auto r = run_loupe(analyze_args(in.path() / "missing", out.path(), {"good"}));
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("missing: no such directory"));

  r = run_loupe(analyze_args(in.path(), out.path(), {"good"}));  // no manifest
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("category_manifest.json") && Catch::Contains("--only"));

  write_manifest(in.path(), {"test_good"});
  r = run_loupe(analyze_args(in.path(), out.path(), {"good"}, {"--only", "nope"}));
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("no loaded plugin handles category 'nope'"));

  // Manifests of the wrong shape (found by fuzzing) name the problem.
  for (const auto& [manifest, why] : std::vector<std::pair<std::string, std::string>>{
           {R"("x")", "is not a JSON object"},
           {"[]", "is not a JSON object"},
           {R"({"categories": 1})", "has no 'categories' list"},
           {R"({"categories": [1]})", "categories[0] is not an object"},
           {R"({"categories": ["gemm"]})", "categories[0] is not an object"},
           {R"({"categories": [{"name": "../x"}]})", "categories[0] is not an object"}}) {
    INFO(manifest);
    TempDir bad;
    loupe::test::write_text(bad.path() / "category_data" / "category_manifest.json", manifest);
    const auto m = run_loupe(analyze_args(bad.path(), out.path(), {"good"}));
    CHECK(m.exit_code == 2);
    CHECK_THAT(m.err, Catch::Contains("category_manifest.json") && Catch::Contains(why));
  }
  write_manifest(in.path(), {"test_good"});

  r = run_loupe(analyze_args(in.path(), out.path(), {"good"}, {"--scope", "sideways"}));
  CHECK(r.exit_code == 2);
  r = run_loupe(analyze_args(in.path(), out.path(), {"good"}, {"--bogus"}));
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("bogus"));
}

TEST_CASE("a re-run replaces the earlier run: none of its files stay beside the new ones",
          "[cli]") {
  TempDir in, out;
  write_manifest(in.path(), {"test_good"});
  REQUIRE(run_loupe(analyze_args(in.path(), out.path(), {"good"})).exit_code == 0);
  REQUIRE(fs::exists(out.path() / "system_findings" / "test_good_findings.md"));
  loupe::test::write_text(out.path() / "notes.txt", "the user's own file\n");
  // Second run over the same output dir with a plugin that crashes on another category.
  write_manifest(in.path(), {"test_segfaults"});
  REQUIRE(run_loupe(analyze_args(in.path(), out.path(), {"segfaults"})).exit_code == 1);
  CHECK_FALSE(fs::exists(out.path() / "system_findings" / "test_good_findings.md"));
  CHECK_FALSE(fs::exists(out.path() / "category_data" / "test_good_metrics.json"));
  CHECK(fs::exists(out.path() / "system_findings" / "test_segfaults_findings.md"));
  CHECK(read_text(out.path() / "notes.txt") == "the user's own file\n");
  const auto run = loupe::core::parse_json_document(read_text(out.path() / "loupe_run.json"));
  const auto& analysis = (*run)["outputs"]["analysis"];
  // The run's report is recorded too (no plot: the manifest has no GPU time).
  REQUIRE(analysis.Size() == 8);
  CHECK(std::string(analysis[0].GetString()) == "category_data/test_segfaults_metrics.json");
  // findings.json first: priority_data.json takes its numbering from it.
  CHECK(std::string(analysis[2].GetString()) == "findings.json");
  CHECK(std::string(analysis[3].GetString()) == "priority_data.json");
  CHECK(std::string(analysis[4].GetString()) == "metadata/model_info.json");
  CHECK(std::string(analysis[5].GetString()) == "analysis.md");
  CHECK(std::string(analysis[6].GetString()) == "report.html");
  CHECK(std::string(analysis[7].GetString()) == "loupe_run.json");
  // The crashed category is in the report's warnings, not silently left out.
  CHECK_THAT(read_text(out.path() / "analysis.md"),
             Catch::Contains("## Warnings") && Catch::Contains("| test_segfaults | System | "));
  CHECK_THAT(read_text(out.path() / "report.html"),
             Catch::Contains("<b>test_segfaults</b> could not be analyzed"));
  for (const auto& entry : fs::recursive_directory_iterator(out.path())) {
    CHECK_THAT(entry.path().filename().string(), !Catch::Contains(".tmp."));
  }
}

TEST_CASE("a re-run stopped by a usage error leaves the earlier run untouched", "[cli]") {
  TempDir in, out;
  write_manifest(in.path(), {"test_good"});
  REQUIRE(run_loupe(analyze_args(in.path(), out.path(), {"good"})).exit_code == 0);
  const std::string before = read_text(out.path() / "system_findings" / "test_good_findings.md");
  const auto r = run_loupe(analyze_args(in.path(), out.path(), {"good"}, {"--only", "nope"}));
  CHECK(r.exit_code == 2);
  CHECK(read_text(out.path() / "system_findings" / "test_good_findings.md") == before);
}

TEST_CASE("a crafted run record cannot make the cleanup remove files outside -o", "[cli]") {
  TempDir in, out, elsewhere;
  write_manifest(in.path(), {"test_good"});
  const fs::path victim = elsewhere.path() / "victim.txt";
  loupe::test::write_text(victim, "keep me\n");
  const fs::path link = out.path() / "link.txt";
  fs::create_symlink(victim, link);
  loupe::test::write_text(out.path() / "loupe_run.json",
                          R"({"outputs": {"prepared": [")" + victim.string() + R"(", "../)" +
                              elsewhere.path().filename().string() +
                              R"(/victim.txt", "link.txt"], "analysis": []}})");
  REQUIRE(run_loupe(analyze_args(in.path(), out.path(), {"good"})).exit_code == 0);
  CHECK(read_text(victim) == "keep me\n");
  CHECK(fs::is_symlink(link));
}

TEST_CASE("the workload comes from --workload, else from what the trace shows", "[cli]") {
  TempDir in;
  write_manifest(in.path(), {"test_good"});
  const auto summary = in.path() / "perf_report_csvs" / "unified_perf_summary.csv";
  auto workload_of = [&](std::vector<std::string> extra) {
    TempDir out;
    const auto r = run_loupe(analyze_args(in.path(), out.path(), {"good"}, std::move(extra)));
    REQUIRE(r.exit_code == 0);
    const auto run = loupe::core::parse_json_document(read_text(out.path() / "loupe_run.json"));
    const auto evidence = run->HasMember("workload_evidence")
                              ? std::string((*run)["workload_evidence"].GetString())
                              : std::string();
    return std::make_pair(std::string((*run)["workload"].GetString()), evidence);
  };
  // A serving engine in the call stacks: inference, SGLang before the vllm:: kernels it runs.
  loupe::test::write_text(summary,
                          "name,call_stack_full\n"
                          "vllm::rms_norm,forward (/ws/model.py:10)\n"
                          "aten::mm,event_loop (/ws/sglang/srt/managers/scheduler.py:900)\n");
  auto [workload, evidence] = workload_of({});
  CHECK(workload == "inference");
  CHECK_THAT(evidence, Catch::Contains("serving engine SGLang") &&
                           Catch::Contains("sglang/srt/managers/scheduler.py"));
  // Backward ops: training.
  loupe::test::write_text(summary,
                          "name,call_stack_full\naten::mm,\naten::convolution_backward,\n");
  std::tie(workload, evidence) = workload_of({});
  CHECK(workload == "training");
  CHECK(evidence == "1 backward op signatures in unified_perf_summary.csv");
  // No backward op at all: inference.
  loupe::test::write_text(summary, "name,call_stack_full\naten::mm,\naten::softmax,\n");
  std::tie(workload, evidence) = workload_of({});
  CHECK(workload == "inference");
  CHECK_THAT(evidence, Catch::Contains("no backward op among the 2 op signatures"));
  // --workload wins; compat mode keeps TraceLens's unknown.
  std::tie(workload, evidence) = workload_of({"--workload", "training"});
  CHECK(workload == "training");
  CHECK(evidence == "--workload training");
  std::tie(workload, evidence) = workload_of({"--compat", "tracelens"});
  CHECK(workload == "unknown");
}
