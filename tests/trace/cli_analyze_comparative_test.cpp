// `loupe analyze --trace T1 --trace2 T2`: the comparative scope from two raw traces, from the
// prepared trace-1/trace-2 report folders to the analyzers' comparative metrics, plus clean
// usage and input errors.
#include <catch2/catch.hpp>

#include <string>

#include "cli_runner.hpp"
#include "inline_trace.hpp"
#include "test_paths.hpp"
#include "trace_text.hpp"

namespace fs = std::filesystem;
using loupe::test::run_loupe;

namespace {

// A module launching `kernels` kernels (one aten op each, 20 µs apart).
std::string module_trace(int kernels) {
  namespace it = loupe::test::inline_trace;
  std::string events = it::cpu_op("nn.Module: Block_0", 0, 500, R"("External id":100)");
  for (int k = 0; k < kernels; ++k) {
    const std::string id = std::to_string(k + 1);
    events += it::op_with_kernel("aten::op" + id, "ew_kernel_" + id, k + 1, 10 + 20 * k, 10);
  }
  return it::trace_document(events);
}

}  // namespace

TEST_CASE("loupe analyze --trace --trace2 writes both reports and a comparative manifest",
          "[trace][cli]") {
  loupe::test::TempDir tmp;
  const fs::path trace1 = tmp.path() / "four_kernels.json";
  const fs::path trace2 = tmp.path() / "two_kernels.json";
  loupe::test::write_text(trace1, module_trace(4));
  loupe::test::write_text(trace2, module_trace(2));
  const fs::path out = tmp.path() / "out";
  const auto r = run_loupe(
      {"analyze", "--trace", trace1.string(), "--trace2", trace2.string(), "-o", out.string()});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.err, Catch::Contains("aligning the two traces") &&
                        Catch::Contains("trace 2: costing operations"));
  CHECK_THAT(r.out, Catch::Contains("Loupe analysis (comparative)"));
  for (const char* rel :
       {"perf_report_trace1_csvs/gpu_timeline.csv", "perf_report_trace1_csvs/diff_stats.csv",
        "perf_report_trace1_csvs/unified_perf_summary.csv",
        "perf_report_trace2_csvs/gpu_timeline.csv",
        "perf_report_trace2_csvs/unified_perf_summary.csv", "metadata/trace2_gpu_utilization.json",
        "category_data/fusion_candidates.json"}) {
    INFO(rel);
    CHECK(fs::exists(out / rel));
  }
  CHECK_FALSE(fs::exists(out / "perf_report_csvs"));
  // Trace 1's last two kernels have no counterpart in trace 2: they are diff rows.
  const std::string diff = loupe::test::read_text(out / "perf_report_trace1_csvs/diff_stats.csv");
  CHECK_THAT(diff, Catch::Contains("ew_kernel_3") && Catch::Contains("ew_kernel_4"));
  CHECK_THAT(loupe::test::read_text(out / "perf_report_trace1_csvs/unified_perf_summary.csv"),
             Catch::Contains("speedup (trace2/trace1)"));
  const std::string manifest = loupe::test::read_text(out / "category_data/category_manifest.json");
  CHECK_THAT(manifest, Catch::Contains(R"("comparison_scope": "comparative")") &&
                           Catch::Contains(R"("trace2_gpu_utilization": {)") &&
                           Catch::Contains(R"("trace2_ops_summary_by_category": [)"));
}

TEST_CASE("loupe analyze --trace2 usage and input errors", "[trace][cli]") {
  loupe::test::TempDir tmp;
  const fs::path trace = tmp.path() / "small.json";
  loupe::test::write_text(trace, loupe::test::trace::small_trace());
  const std::string out = (tmp.path() / "out").string();

  const auto without_trace = run_loupe({"analyze", out, "--trace2", trace.string()});
  CHECK(without_trace.exit_code == 2);
  CHECK_THAT(without_trace.err,
             Catch::Contains("--trace2, --platform, --arch and --max-memory apply to --trace"));

  const fs::path missing = tmp.path() / "missing.json";
  const auto no_file =
      run_loupe({"analyze", "--trace", trace.string(), "--trace2", missing.string(), "-o", out});
  CHECK(no_file.exit_code == 2);
  CHECK_THAT(no_file.err, Catch::Contains("--trace2 " + missing.string() + ": no such file"));

  const fs::path gpu_only = tmp.path() / "gpu_only.json";
  loupe::test::write_text(gpu_only, loupe::test::trace::wrap_events(
                                        R"({"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,)"
                                        R"("ts":10,"dur":5,"args":{"stream":7,"device":0}})"));
  const auto gpu =
      run_loupe({"analyze", "--trace", trace.string(), "--trace2", gpu_only.string(), "-o", out});
  CHECK(gpu.exit_code == 2);
  CHECK_THAT(gpu.err, Catch::Contains(gpu_only.string()) &&
                          Catch::Contains("the second trace has GPU events only"));
  CHECK_FALSE(fs::exists(out));  // nothing was written for the failed runs
}

TEST_CASE("loupe analyze --trace --trace2 reproduces TraceLens's comparative metrics",
          "[trace][cli][reference][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  std::size_t compared = 0;
  for (const char* pair : {"test01_moe_fused_vs_unfused", "test02_attention_both_unfused",
                           "test03_attention_fused_vs_unfused"}) {
    INFO(pair);
    const fs::path traces = shared / "data/traces/unit_tests_comparative" / pair;
    const fs::path reference =
        shared / "data/reference" / (std::string("comparative_utc_") + pair) / "category_data";
    loupe::test::TempDir tmp;
    const auto r = run_loupe({"analyze", "--trace", (traces / "trace1.json").string(), "--trace2",
                              (traces / "trace2.json").string(), "-o", tmp.path().string(),
                              "--compat", "tracelens", "--platform", "MI300X", "-q"});
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);  // every category OK or NO_DATA, every findings file valid
    // Every metrics file Loupe wrote equals TraceLens's (TraceLens also ran multi_kernel on
    // manifests that do not list it; Loupe runs listed categories only).
    for (const auto& entry : fs::directory_iterator(tmp.path() / "category_data")) {
      const std::string name = entry.path().filename().string();
      if (!name.ends_with("_metrics.json")) continue;
      INFO(name);
      REQUIRE(fs::exists(reference / name));
      CHECK(loupe::test::read_text(entry.path()) == loupe::test::read_text(reference / name));
      ++compared;
    }
  }
  // Only test01 has a fusion candidate, so only its manifest lists kernel_fusion.
  CHECK(compared >= 1);
  // test01: trace 1's four MoE kernels become one fused kernel in trace 2.
  const fs::path pair = shared / "data/traces/unit_tests_comparative/test01_moe_fused_vs_unfused";
  loupe::test::TempDir tmp;
  const auto r = run_loupe({"analyze", "--trace", (pair / "trace1.json").string(), "--trace2",
                            (pair / "trace2.json").string(), "-o", tmp.path().string(), "-q"});
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(loupe::test::read_text(tmp.path() / "system_findings/kernel_fusion_findings.md"),
             Catch::Contains("Trace1 launches 4 kernels where trace2 launches 1"));
}
