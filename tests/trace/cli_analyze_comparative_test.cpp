// `loupe analyze --trace T1 --trace2 T2`: the comparative scope from two raw traces, from the
// prepared trace-1/trace-2 report folders to the analyzers' comparative metrics, plus clean
// usage and input errors.
#include <catch2/catch.hpp>

#include <string>

#include "cli_runner.hpp"
#include "inline_trace.hpp"
#include "loupe/core/model/csv_table.hpp"
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

namespace {

// One aten::mm of 4096^3 in BF16 (137.4 GFLOP) with its kernel, on the device `device_json`
// (a deviceProperties entry; empty: none).
std::string gemm_trace(const std::string& device_json, int kernel_us) {
  const std::string events =
      R"({"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":0,"dur":30,"args":{)"
      R"("External id":1,"Input Dims":[[4096,4096],[4096,4096]],)"
      R"("Input type":["c10::BFloat16","c10::BFloat16"],"Input Strides":[[4096,1],[4096,1]]}},)"
      R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":5,)"
      R"("dur":5,"args":{"correlation":1,"External id":1}},)"
      R"({"ph":"X","cat":"kernel","name":"gemm_kernel","pid":0,"tid":7,"ts":100,"dur":)" +
      std::to_string(kernel_us) +
      R"(,"args":{"correlation":1,"stream":7,"device":0,"External id":1}},)"
      R"({"ph":"s","id":1,"pid":1,"tid":1,"ts":5,"cat":"ac2g","name":"ac2g"},)"
      R"({"ph":"f","id":1,"pid":0,"tid":7,"ts":100,"cat":"ac2g","name":"ac2g","bp":"e"})";
  return "{" + (device_json.empty() ? "" : "\"deviceProperties\": [" + device_json + "], ") +
         "\"traceEvents\": [" + events + "]}";
}

// The roofline time (µs) of the GEMM row of a perf report's GEMM.csv.
double gemm_roofline_us(const fs::path& csv) {
  const auto table = loupe::core::parse_csv(loupe::test::read_text(csv));
  const auto column = table.find_column("Roofline Time (µs)_first");
  REQUIRE(column);
  REQUIRE(table.row_count() == 1);
  return table.cell(0, *column).number;
}

constexpr const char* kMi300xDevice =
    R"({"id": 0, "name": "AMD Instinct MI300X VF", "totalGlobalMem": 205571227648, "numSms": 304})";
constexpr const char* kH100Device =
    R"({"id": 0, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem": 85018279936, "numSms": 132})";

}  // namespace

TEST_CASE("each trace of a comparative run is judged against its own platform", "[trace][cli]") {
  loupe::test::TempDir tmp;
  const fs::path mi300x = tmp.path() / "mi300x.json";
  const fs::path h100 = tmp.path() / "h100.json";
  const fs::path unnamed = tmp.path() / "unnamed.json";
  loupe::test::write_text(mi300x, gemm_trace(kMi300xDevice, 300));
  loupe::test::write_text(h100, gemm_trace(kH100Device, 200));
  loupe::test::write_text(unnamed, gemm_trace("", 200));
  // 137.438953472 GFLOP against each platform's matrix_bf16 peak (core/arch/*.json).
  const double gflop = 4096.0 * 4096.0 * 4096.0 * 2.0 / 1e9;
  const double on_mi300x_us = gflop * 1e9 / (708.0 * 1e12) * 1e6;  // 194.1 µs
  const double on_h100_us = gflop * 1e9 / (989.0 * 1e12) * 1e6;    // 139.0 µs
  const double on_b200_us = gflop * 1e9 / (2250.0 * 1e12) * 1e6;   // 61.1 µs

  const fs::path out = tmp.path() / "out";
  auto r = run_loupe(
      {"analyze", "--trace", mi300x.string(), "--trace2", h100.string(), "-o", out.string()});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.err, Catch::Contains("for trace 2 platform H100 from the trace's device"));
  CHECK(gemm_roofline_us(out / "perf_report_trace1_csvs/GEMM.csv") ==
        Approx(on_mi300x_us).epsilon(1e-9));
  CHECK(gemm_roofline_us(out / "perf_report_trace2_csvs/GEMM.csv") ==
        Approx(on_h100_us).epsilon(1e-9));
  const std::string manifest = loupe::test::read_text(out / "category_data/category_manifest.json");
  CHECK_THAT(manifest, Catch::Contains(R"("platform": "MI300X")") &&
                           Catch::Contains(R"("trace2_platform": "H100")"));
  CHECK_THAT(loupe::test::read_text(out / "analysis.md"),
             Catch::Contains("Trace 1 (MI300X) vs Trace 2 (H100)"));

  // --platform2 overrides trace 2's device, in any case.
  r = run_loupe({"analyze", "--trace", mi300x.string(), "--trace2", h100.string(), "-o",
                 out.string(), "--platform2", "b200"});
  REQUIRE(r.exit_code == 0);
  CHECK(gemm_roofline_us(out / "perf_report_trace2_csvs/GEMM.csv") ==
        Approx(on_b200_us).epsilon(1e-9));
  CHECK_THAT(loupe::test::read_text(out / "category_data/category_manifest.json"),
             Catch::Contains(R"("trace2_platform": "B200")"));

  // A trace 2 that names no device is taken for trace 1's platform, and says so.
  r = run_loupe(
      {"analyze", "--trace", h100.string(), "--trace2", unnamed.string(), "-o", out.string()});
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.err, Catch::Contains("platform H100, as trace 1"));
  CHECK(gemm_roofline_us(out / "perf_report_trace2_csvs/GEMM.csv") ==
        Approx(on_h100_us).epsilon(1e-9));

  // Compat mode keeps TraceLens's single platform and its manifest.
  r = run_loupe({"analyze", "--trace", mi300x.string(), "--trace2", h100.string(), "-o",
                 out.string(), "--compat", "tracelens"});
  REQUIRE(r.exit_code == 0);
  CHECK(gemm_roofline_us(out / "perf_report_trace2_csvs/GEMM.csv") ==
        Approx(on_mi300x_us).epsilon(1e-9));
  CHECK_THAT(loupe::test::read_text(out / "category_data/category_manifest.json"),
             !Catch::Contains("trace2_platform"));

  // Usage: the trace-2 options need --trace2, one of them, and a known platform.
  const std::string o = (tmp.path() / "o").string();
  r = run_loupe({"analyze", "--trace", mi300x.string(), "-o", o, "--platform2", "H100"});
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("--platform2 and --arch2 apply to --trace2 only"));
  r = run_loupe({"analyze", "--trace", mi300x.string(), "--trace2", h100.string(), "-o", o,
                 "--platform2", "H10"});
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("--platform2: unknown platform 'H10' (bundled: B200"));
  CHECK_FALSE(fs::exists(o));
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

TEST_CASE("an H100 trace 2 beside an MI300X trace 1 is judged against H100 peaks",
          "[trace][cli][reference][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  const fs::path traces = shared / "data/traces";
  loupe::test::TempDir tmp;
  const auto r = run_loupe(
      {"analyze", "--trace", (traces / "mi300/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz").string(),
       "--trace2", (traces / "h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz").string(), "-o",
       tmp.path().string()});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.err, Catch::Contains("for trace 2 platform H100 from the trace's device "
                                    "(\"NVIDIA H100 80GB HBM3\", 132 compute units, 79.2 GiB)"));
  // The same GEMM shapes in both traces: each roofline is its FLOPs over its own platform's
  // matrix_bf16 peak (MI300X 708, H100 989 TFLOPS).
  const auto gemms = [&](const char* dir) {
    return loupe::core::parse_csv(loupe::test::read_text(tmp.path() / dir / "GEMM.csv"));
  };
  const auto t1 = gemms("perf_report_trace1_csvs");
  const auto t2 = gemms("perf_report_trace2_csvs");
  REQUIRE(t1.row_count() >= 3);
  REQUIRE(t2.row_count() == t1.row_count());
  std::size_t checked = 0;
  for (const auto* table : {&t1, &t2}) {
    const double peak = table == &t1 ? 708.0 : 989.0;
    const auto gflops = table->find_column("GFLOPS_first");
    const auto roofline = table->find_column("Roofline Time (µs)_first");
    const auto bound = table->find_column("Roofline Bound_first");
    REQUIRE((gflops && roofline && bound));
    for (std::size_t row = 0; row < table->row_count(); ++row) {
      if (table->cell(row, *bound).text != "COMPUTE_BOUND") continue;
      CHECK(table->cell(row, *roofline).number ==
            Approx(table->cell(row, *gflops).number * 1e9 / (peak * 1e12) * 1e6).epsilon(1e-9));
      ++checked;
    }
  }
  CHECK(checked >= 2);
  CHECK_THAT(loupe::test::read_text(tmp.path() / "analysis.md"),
             Catch::Contains("Comparative Analysis: Trace 1 (MI300X) vs Trace 2 (H100)"));
}
