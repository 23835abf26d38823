// `loupe analyze --trace` on matmul_ogs MoE kernels (docs/deviations.md, "MoE matmuls
// (matmul_ogs)"): default mode puts them in MoE_unfused with Loupe's model, numbers when the
// trace shows the MoE op's shapes, the reason when it does not; compat mode has TraceLens's
// pseudo-op rows.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "cli_runner.hpp"
#include "loupe/core/model/csv_table.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;
using loupe::test::read_text;
using loupe::test::run_loupe;

namespace {

// vllm::moe_forward over 32 tokens of hidden size 3072 routed to 4 of 32 experts: its TopK op,
// then the gated up and the down matmul_ogs kernels launched from the MoE op.
std::string moe_trace() {
  std::string e;
  e += R"({"ph":"X","cat":"cpu_op","name":"vllm::moe_forward","pid":1,"tid":1,"ts":0,"dur":400,)"
       R"("args":{"External id":1,"Input Dims":[[32,3072],[32,32],[],[]],)"
       R"("Input type":["c10::BFloat16","c10::BFloat16","",""]}},)";
  e += R"({"ph":"X","cat":"cpu_op","name":"TopK","pid":1,"tid":1,"ts":10,"dur":20,)"
       R"("args":{"External id":2,"Input Dims":[[32,32],[],[],[],[],[],[]],)"
       R"("Concrete Inputs":["","4","True","1","True","",""]}},)";
  const char* kernels[2] = {"_matmul_ogs_NNT_bf16xbf16xmxfp4_16x128x256x1_swiglu",
                            "_matmul_ogs_NNT_bf16xbf16xmxfp4_16x128x256x1"};
  for (int i = 0; i < 2; ++i) {
    const std::string id = std::to_string(10 + i);
    const std::string ts = std::to_string(100 + 100 * i);
    const std::string kts = std::to_string(1000 + 200 * i);
    e += R"({"ph":"X","cat":"cuda_runtime","name":"hipModuleLaunchKernel","pid":1,"tid":1,"ts":)" +
         ts + R"(,"dur":5,"args":{"correlation":)" + id + R"(,"External id":1}},)";
    e += R"({"ph":"X","cat":"kernel","name":")" + std::string(kernels[i]) +
         R"(","pid":0,"tid":7,"ts":)" + kts + R"(,"dur":100,"args":{"correlation":)" + id +
         R"(,"stream":7,"device":0}},)";
    e += R"({"ph":"s","id":)" + id + R"(,"pid":1,"tid":1,"ts":)" + ts +
         R"(,"cat":"ac2g","name":"ac2g"},)";
    e += R"({"ph":"f","id":)" + id + R"(,"pid":0,"tid":7,"ts":)" + kts +
         R"(,"cat":"ac2g","name":"ac2g","bp":"e"})";
    if (i == 0) e += ",";
  }
  return R"({"traceEvents":[)" + e + "]}";
}

struct Row {
  std::string category, params;
  double gflops = 0;
  bool found = false;
};

Row row_named(const fs::path& csv, std::string_view name) {
  const auto table = loupe::core::parse_csv(read_text(csv));
  const auto n = table.find_column("name");
  const auto c = table.find_column("op category");
  const auto p = table.find_column("perf_params");
  const auto g = table.find_column("GFLOPS");
  REQUIRE(n);
  REQUIRE(c);
  REQUIRE(p);
  Row out;
  for (std::size_t r = 0; r < table.row_count(); ++r) {
    if (table.cell(r, *n).text != name) continue;
    out.found = true;
    out.category = std::string(table.cell(r, *c).text);
    out.params = std::string(table.cell(r, *p).text);
    if (g) out.gflops = table.cell(r, *g).number;
  }
  return out;
}

}  // namespace

TEST_CASE("default mode models the matmul_ogs kernels of a vllm::moe_forward op",
          "[trace][cli][moe]") {
  loupe::test::TempDir tmp;
  const fs::path trace = tmp.path() / "moe.json";
  loupe::test::write_text(trace, moe_trace());

  const fs::path out = tmp.path() / "default";
  auto r = run_loupe(
      {"analyze", "--trace", trace.string(), "-o", out.string(), "--platform", "MI300X", "-q"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const Row moe = row_named(out / "perf_report_csvs/unified_perf_summary.csv", "vllm::moe_forward");
  REQUIRE(moe.found);
  CHECK(moe.category == "MoE_unfused");
  CHECK_THAT(moe.params, Catch::Contains("'evidence': 'modeled'") && Catch::Contains("'topk': 4") &&
                             Catch::Contains("'num_experts': 32") &&
                             Catch::Contains("'kernels': 2"));
  // Up 4.831838208 + down 2.415919104 GFLOP (tests/prepare/perf_model/moe_matmul_ogs_test.cpp).
  CHECK(moe.gflops == Approx(7.247757312));
  CHECK(fs::exists(out / "category_data/moe_unfused_ops.csv"));
  // The moe analyzer knows matmul_ogs stages are grouped GEMMs already.
  const std::string moe_card = read_text(out / "category_findings/moe_unfused_findings.md");
  CHECK_THAT(moe_card, Catch::Contains("already run as one grouped GEMM per stage") &&
                           !Catch::Contains("Replace the per-stage expert GEMMs"));

  // Compat mode: TraceLens's pseudo ops (docs/contracts/trace_model.md §2.10) take each
  // matmul_ogs kernel out of the op, which keeps no row of its own; the up and down pseudo ops
  // carry TraceLens's model (tests/trace/cli_pseudo_ops_test.cpp checks their numbers).
  const fs::path compat = tmp.path() / "compat";
  r = run_loupe({"analyze", "--trace", trace.string(), "-o", compat.string(), "--platform",
                 "MI300X", "--compat", "tracelens", "-q"});
  REQUIRE(r.exit_code == 0);
  const auto compat_csv = compat / "perf_report_csvs/unified_perf_summary.csv";
  CHECK_FALSE(row_named(compat_csv, "vllm::moe_forward").found);
  const Row up = row_named(compat_csv, "pseudo_op::moe_triton_unfused_up");
  REQUIRE(up.found);
  CHECK(up.category == "MoE_unfused");
  CHECK_THAT(up.params, !Catch::Contains("evidence"));
  CHECK(row_named(compat_csv, "pseudo_op::moe_triton_unfused_down").found);
}

TEST_CASE("default mode: the vLLM runs' graph-replayed matmul_ogs kernels are MoE work",
          "[trace][cli][moe][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  for (const char* run : {"vllm_decode_full", "vllm_prefilldecode_piecewise"}) {
    INFO(run);
    loupe::test::TempDir tmp;
    const fs::path trace = shared / "data/traces/inference" / run / "graph_execution.json.gz";
    const auto r = run_loupe({"analyze", "--trace", trace.string(), "-o", tmp.path().string(),
                              "--platform", "MI300X", "-q"});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const auto table =
        loupe::core::parse_csv(read_text(tmp.path() / "perf_report_csvs/unified_perf_summary.csv"));
    const auto n = table.find_column("name");
    const auto c = table.find_column("op category");
    const auto p = table.find_column("perf_params");
    const auto t = table.find_column("Kernel Time (µs)_sum");
    REQUIRE(n);
    REQUIRE(c);
    REQUIRE(p);
    REQUIRE(t);
    int matmul_rows = 0;
    double total_us = 0;
    double moe_us = 0;
    double other_us = 0;
    for (std::size_t i = 0; i < table.row_count(); ++i) {
      const double us = table.cell(i, *t).number;
      total_us += us;
      const std::string_view category = table.cell(i, *c).text;
      if (category == "other") other_us += us;
      if (table.cell(i, *n).text.find("_matmul_ogs_") == std::string_view::npos) continue;
      ++matmul_rows;
      moe_us += us;
      CHECK(category == "MoE_unfused");
      // Replays record no shapes: the kernel's facts, the evidence and why there are no numbers.
      CHECK_THAT(std::string(table.cell(i, *p).text),
                 Catch::Contains("'evidence': 'heuristic'") &&
                     Catch::Contains("'weight_dtype': 'mxfp4'") &&
                     Catch::Contains("GPU-graph replay records no shapes"));
    }
    // The up and the down kernel of each run (24 layers each, grouped by name).
    CHECK(matmul_rows == 2);
    // matmul_ogs is 65.6 % (decode) and 78.5 % (piecewise) of the kernel time: it leaves `other`
    // (96.9 % and 96.0 % before, 31.3 % and 17.5 % now).
    CHECK(moe_us / total_us > 0.6);
    CHECK(other_us / total_us < 0.4);
    CHECK(fs::exists(tmp.path() / "category_data/moe_unfused_ops.csv"));
  }
}
