// End-to-end tests through `loupe analyze --only kernel_fusion` on the bundled fixtures
// (tests/data/fusion): compat parity, default-mode corrections and bad input.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "cli_runner.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;
using loupe::test::read_text;
using loupe::test::run_loupe;
using loupe::test::TempDir;
using loupe::test::write_text;

namespace {

fs::path fixture(const char* name) { return loupe::test::bundled_data_dir() / "fusion" / name; }

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (size_t pos = text.find(from); pos != std::string::npos;
       pos = text.find(from, pos + to.size())) {
    text.replace(pos, from.size(), to);
  }
  return text;
}

struct Run {
  int exit_code = -1;
  // With the input directory replaced by <output_dir>: TraceLens reads and writes one directory,
  // and its messages about a missing input name it so.
  std::string metrics;
  std::string findings;
  std::string err;
};

Run analyze(const fs::path& input, const fs::path& out, std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"analyze",    input.string(), "-o",
                                   out.string(), "--only",       "kernel_fusion"};
  args.insert(args.end(), extra.begin(), extra.end());
  const auto r = run_loupe(args);
  Run run;
  run.exit_code = r.exit_code;
  run.err = r.err;
  const fs::path metrics = out / "category_data/kernel_fusion_metrics.json";
  if (fs::exists(metrics))
    run.metrics = replace_all(read_text(metrics), fs::absolute(input).lexically_normal().string(),
                              "<output_dir>");
  const fs::path findings = out / "system_findings/kernel_fusion_findings.md";
  if (fs::exists(findings)) run.findings = read_text(findings);
  return run;
}

// A scratch copy of ok_meta with one file replaced (or removed when text is empty).
fs::path broken_copy(const TempDir& tmp, const std::string& rel, const std::string& text) {
  const fs::path dir = tmp.path() / "in";
  loupe::test::copy_tree(fixture("ok_meta"), dir);
  fs::remove(dir / "category_data/kernel_fusion_metrics.json");
  if (text.empty()) {
    fs::remove_all(dir / rel);
  } else {
    write_text(dir / rel, text);
  }
  return dir;
}

bool contains(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

}  // namespace

TEST_CASE("fusion_cli compat: T12 ok_meta and comparative are byte-exact", "[fusion]") {
  for (const char* name : {"ok_meta", "comparative"}) {
    TempDir tmp;
    const Run run = analyze(fixture(name), tmp.path() / "out", {"--compat", "tracelens"});
    INFO(name << ": " << run.err);
    CHECK(run.exit_code == 0);
    CHECK(run.metrics == read_text(fixture(name) / "category_data/kernel_fusion_metrics.json"));
    const auto v = run_loupe(
        {"validate", (tmp.path() / "out/system_findings/kernel_fusion_findings.md").string(),
         "--tier", "fusion", "--scope",
         std::string(name) == "comparative" ? "comparative" : "standalone", "--compat",
         "tracelens"});
    INFO(v.out << v.err);
    CHECK(v.exit_code == 0);
    CHECK(contains(run.findings, "kind=p_item"));
  }
}

TEST_CASE("fusion_cli default mode: corrections and rejected candidates", "[fusion]") {
  TempDir tmp;
  const Run run = analyze(fixture("ok_meta"), tmp.path() / "out");
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  // Q3: the GEMM kernel of LlamaMLP is no longer in the kernel map.
  CHECK_FALSE(contains(run.metrics, "\"Cijk_gemm_A\": \"LlamaMLP\""));
  CHECK(contains(run.metrics, "\"ew_gelu_kernel\": \"LlamaMLP\""));
  // Q4 extras and the rejected-candidates list exist only in default mode.
  CHECK(contains(run.metrics, "\"candidate_index\": "));
  CHECK(contains(run.metrics, "\"rejected_candidates\": ["));
  // Q5: MiB bytes lower the RMSNorm roofline savings: 34 - 2.6821 = 31.318 us, 17.54
  // (compat 17.61).
  CHECK_FALSE(contains(run.metrics, "\"impact_score\": 17.61"));
  CHECK(contains(run.metrics, "\"impact_score\": 17.54"));
  const auto v = run_loupe({"validate",
                            (tmp.path() / "out/system_findings/kernel_fusion_findings.md").string(),
                            "--tier", "fusion", "--scope", "standalone", "--compat", "tracelens"});
  INFO(v.out << v.err);
  CHECK(v.exit_code == 0);
}

TEST_CASE("fusion_cli bad input gives ERROR metrics, ERROR findings and exit 1", "[fusion]") {
  struct Case {
    const char* what;
    std::string rel;
    std::string text;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {"missing candidates", "category_data/fusion_candidates.json", "",
       "Fusion candidates not found: <output_dir>/category_data/fusion_candidates.json"},
      {"malformed candidates", "category_data/fusion_candidates.json",
       "[{\"module_name\": ", "Fusion candidates are not valid JSON"},
      {"candidates not a list", "category_data/fusion_candidates.json", "{\"a\": 1}",
       "category_data/fusion_candidates.json: expected a JSON list of candidates, got an object"},
      {"wrong kernel list type", "category_data/fusion_candidates.json",
       "[{\"module_name\": \"m\", \"kernels\": \"x\"}]",
       "category_data/fusion_candidates.json: [0].kernels is a string, expected a list"},
      {"NaN duration", "category_data/fusion_candidates.json",
       "[{\"module_name\": \"m\", \"kernels\": [{\"name\": \"a\", \"dur_us\": NaN}]}]",
       "category_data/fusion_candidates.json: [0].kernels[0].dur_us is nan, expected a finite "
       "number"},
      {"missing CSV", "perf_report_csvs/unified_perf_summary.csv", "",
       "Perf summary CSV not found: <output_dir>/perf_report_csvs/unified_perf_summary.csv"},
      {"null baseline", "category_data/category_manifest.json",
       "{\"platform\": \"MI300X\", \"gpu_utilization\": {\"total_time_ms\": null}}",
       "category_data/category_manifest.json: gpu_utilization.total_time_ms is null, expected a "
       "finite number"},
  };
  for (const auto& c : cases) {
    for (bool compat : {true, false}) {
      TempDir tmp;
      const fs::path in = broken_copy(tmp, c.rel, c.text);
      std::vector<std::string> extra;
      if (compat) extra = {"--compat", "tracelens"};
      const Run run = analyze(in, tmp.path() / "out", extra);
      INFO(c.what << (compat ? " (compat)" : "") << ": " << run.metrics << run.err);
      CHECK(run.exit_code == 1);
      CHECK(contains(run.metrics, "\"status\": \"ERROR\""));
      CHECK(contains(run.metrics, c.expected));
      CHECK(contains(run.findings, "**Status**: ERROR"));
    }
  }
}

TEST_CASE("fusion_cli unknown platform is a clear ERROR (Q9)", "[fusion]") {
  TempDir tmp;
  const fs::path in = broken_copy(tmp, "metadata", "");
  write_text(in / "category_data/category_manifest.json",
             "{\"platform\": \"MI355X\", \"comparison_scope\": \"standalone\", "
             "\"gpu_utilization\": {\"total_time_ms\": 10.0}}");
  const Run run = analyze(in, tmp.path() / "out", {"--compat", "tracelens"});
  CHECK(run.exit_code == 1);
  CHECK(contains(run.metrics, "No arch config found for platform MI355X in metadata or arch JSON"));
}

TEST_CASE("fusion_cli empty candidate list is NO_DATA with an honest findings file", "[fusion]") {
  for (bool compat : {true, false}) {
    TempDir tmp;
    const fs::path in = broken_copy(tmp, "category_data/fusion_candidates.json", "[]");
    std::vector<std::string> extra;
    if (compat) extra = {"--compat", "tracelens"};
    const Run run = analyze(in, tmp.path() / "out", extra);
    CHECK(run.exit_code == 0);
    CHECK(
        run.metrics ==
        "{\n  \"category\": \"kernel_fusion\",\n  \"status\": \"NO_DATA\",\n  \"candidate_count\": "
        "0,\n  \"impact_estimates\": []\n}");
    CHECK(contains(run.findings, "No kernel fusion opportunities detected."));
    CHECK(contains(run.findings, "0 fusion candidates were read"));
  }
}

TEST_CASE("fusion_cli parity: every reference dir and T12 case, compat mode",
          "[fusion][shared][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  int compared = 0;
  std::vector<std::pair<fs::path, std::vector<std::string>>> dirs;
  for (const auto& entry : fs::directory_iterator(shared / "data/reference")) {
    if (entry.is_directory()) dirs.push_back({entry.path(), {}});
  }
  for (const auto& entry : fs::directory_iterator(shared / "data/golden/fusion/main_runs")) {
    std::vector<std::string> extra;
    if (entry.path().filename() == "comparative_scope_mismatch") extra = {"--scope", "comparative"};
    dirs.push_back({entry.path(), extra});
  }
  for (const auto& [dir, extra] : dirs) {
    const fs::path expected = dir / "category_data/kernel_fusion_metrics.json";
    TempDir tmp;
    auto args = extra;
    args.insert(args.end(), {"--compat", "tracelens"});
    const Run run = analyze(dir, tmp.path() / "out", args);
    INFO(dir.string() << ": " << run.err);
    if (!fs::exists(expected)) {
      // err_platform: TraceLens crashes without a metrics file; Loupe writes ERROR (Q9).
      CHECK(run.exit_code == 1);
      CHECK(contains(run.metrics, "No arch config found for platform"));
      continue;
    }
    const std::string want = read_text(expected);
    CHECK(run.metrics == want);
    CHECK(run.exit_code == (contains(want, "\"status\": \"ERROR\"") ? 1 : 0));
    if (contains(run.findings, "kind=p_item")) {
      const bool comparative = contains(run.findings, "No roofline projection is used");
      const auto v = run_loupe(
          {"validate", (tmp.path() / "out/system_findings/kernel_fusion_findings.md").string(),
           "--tier", "fusion", "--scope", comparative ? "comparative" : "standalone", "--compat",
           "tracelens"});
      INFO(v.out << v.err);
      CHECK(v.exit_code == 0);
    }
    ++compared;
  }
  CHECK(compared == 54);
}
