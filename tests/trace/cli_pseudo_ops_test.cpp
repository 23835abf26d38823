// Pseudo ops in the prepared tables (`loupe analyze --trace`, docs/contracts/trace_model.md
// §2.10): each becomes a unified_perf_summary row of its own with the perf model's numbers,
// computed here by hand from the formulas (tests/prepare/perf_model/moe_stages_test.cpp and
// serving_attention_quant_test.cpp test those formulas on the same shapes).
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "loupe/core/model/csv_table.hpp"
#include "pseudo_op_traces.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;
using loupe::test::read_text;
using loupe::test::run_loupe;

namespace {

struct Row {
  std::string category;
  std::string ex_uid;
  double gflops = 0;
  double data_mb = 0;
  bool has_numbers = false;
};

// unified_perf_summary.csv rows by op name, after analyzing `trace_text` (compat or default).
std::map<std::string, Row> unified_rows(const std::string& trace_text, bool compat) {
  loupe::test::TempDir tmp;
  const fs::path trace = tmp.path() / "trace.json";
  loupe::test::write_text(trace, trace_text);
  const fs::path out = tmp.path() / "out";
  std::vector<std::string> argv = {"analyze",    "--trace",    trace.string(), "-o",
                                   out.string(), "--platform", "MI300X",       "-q"};
  if (compat) {
    argv.emplace_back("--compat");
    argv.emplace_back("tracelens");
  }
  const auto r = run_loupe(argv);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto table =
      loupe::core::parse_csv(read_text(out / "perf_report_csvs/unified_perf_summary.csv"));
  const auto n = table.find_column("name");
  const auto c = table.find_column("op category");
  const auto u = table.find_column("ex_UID");
  const auto g = table.find_column("GFLOPS");
  const auto d = table.find_column("Data Moved (MB)");
  REQUIRE(n);
  REQUIRE(c);
  REQUIRE(u);
  std::map<std::string, Row> rows;
  for (std::size_t i = 0; i < table.row_count(); ++i) {
    Row row;
    row.category = std::string(table.cell(i, *c).text);
    row.ex_uid = std::string(table.cell(i, *u).text);
    if (g && !table.cell(i, *g).text.empty()) {
      row.gflops = table.cell(i, *g).number;
      row.has_numbers = true;
    }
    if (d && !table.cell(i, *d).text.empty()) row.data_mb = table.cell(i, *d).number;
    rows[std::string(table.cell(i, *n).text)] = row;
  }
  return rows;
}

// E = 8 experts, top-2, 4 tokens: a uniform router activates 8 * (1 - (6/8)^4) experts.
constexpr double kActive = 5.46875;

}  // namespace

TEST_CASE("compat: the GPT-OSS MoE's matmul_ogs kernels become TraceLens's pseudo-op rows",
          "[trace][cli][pseudo][moe]") {
  const auto rows = unified_rows(loupe::test::pseudo::triton_moe_trace(true), true);
  // vllm::moe_forward (no model) now holds ops with models: its row gives way to theirs.
  CHECK_FALSE(rows.contains("vllm::moe_forward"));
  REQUIRE(rows.contains("pseudo_op::moe_triton_unfused_up"));
  REQUIRE(rows.contains("pseudo_op::moe_triton_unfused_down"));
  const Row& up = rows.at("pseudo_op::moe_triton_unfused_up");
  const Row& down = rows.at("pseudo_op::moe_triton_unfused_down");
  CHECK(up.category == "MoE_unfused");
  // The trace's 14 events (2 host ops; 3 launches, each with its kernel and 2 flow events): the
  // pseudo ops are UIDs 14-16, the up projection (first on the GPU) first.
  CHECK(up.ex_uid == "14");
  CHECK(down.ex_uid == "15");
  // T = 32 tokens, H = I = 3072 (intermediate taken as the hidden size), k = 4 from TopK:
  // up (gated) 2*T*k*H*I*2, down 2*T*k*H*I.
  CHECK(up.gflops == Approx(2.0 * 32 * 4 * 3072 * 3072 * 2 / 1e9));
  CHECK(down.gflops == Approx(2.0 * 32 * 4 * 3072 * 3072 / 1e9));
  // The finalize kernel's op has no model: a row without numbers.
  REQUIRE(rows.contains("pseudo_op::moe_triton_unfused_finalize_matmul_scatter"));
  CHECK_FALSE(rows.at("pseudo_op::moe_triton_unfused_finalize_matmul_scatter").has_numbers);
}

TEST_CASE("compat and default: AITER fused, GPTQ/AWQ and flydsl MoE pseudo-op rows",
          "[trace][cli][pseudo][moe]") {
  for (const bool compat : {true, false}) {
    INFO(compat);
    const auto fused = unified_rows(loupe::test::pseudo::aiter_fused_moe_trace(false), compat);
    REQUIRE(fused.contains("pseudo_op::moe_aiter_fused_1stage"));
    const Row& f = fused.at("pseudo_op::moe_aiter_fused_1stage");
    CHECK(f.category == "MoE_fused");
    // The op's (input [M, K] bf16, w1 [E, 2N, K] and w2 [E, K, N] FP8, topk weights [M, k]):
    // M = 4, K = 64, N = 128, k = 2, gated. 2MKN*k*2 (up) + 2MKN*k (down) + MK(2k - 1).
    CHECK(f.gflops == Approx((262144.0 + 131072.0 + 4 * 64 * 3) / 1e9));
    // Input MK*2 + E_active*N*K*1*2 (w1) + E_active*N*K*1 (w2) + output MK*2 bytes.
    CHECK(f.data_mb == Approx((512 + kActive * 128 * 64 * 3 + 512) / 1048576.0));

    const auto gptq = unified_rows(loupe::test::pseudo::gptq_moe_trace(), compat);
    REQUIRE(gptq.contains("pseudo_op::moe_gptq_awq_up"));
    REQUIRE(gptq.contains("pseudo_op::moe_gptq_awq_down"));
    // N = 128 from w1's 2N = 256 rows, k = 2 from topk_ids [4, 2].
    CHECK(gptq.at("pseudo_op::moe_gptq_awq_up").gflops == Approx(2.0 * 4 * 64 * 128 * 2 * 2 / 1e9));
    CHECK(gptq.at("pseudo_op::moe_gptq_awq_down").gflops == Approx(2.0 * 4 * 128 * 64 * 2 / 1e9));
    CHECK_FALSE(gptq.contains("vllm::outplace_fused_experts"));

    const auto flydsl = unified_rows(loupe::test::pseudo::flydsl_moe_trace(true), compat);
    REQUIRE(flydsl.contains("pseudo_op::moe_flydsl_stage1"));
    REQUIRE(flydsl.contains("pseudo_op::moe_flydsl_stage2"));
    // The fused_moe_ op's shapes: N = 2 * 64 from MXFP4 w1's stored 32.
    CHECK(flydsl.at("pseudo_op::moe_flydsl_stage1").gflops ==
          Approx(2.0 * 4 * 64 * 128 * 2 * 2 / 1e9));
    CHECK(flydsl.at("pseudo_op::moe_flydsl_stage2").gflops == Approx(2.0 * 4 * 128 * 64 * 2 / 1e9));
  }
}

TEST_CASE("default mode: MLA pseudo ops get the step's token counts and numbers",
          "[trace][cli][pseudo][attention]") {
  const auto rows = unified_rows(loupe::test::pseudo::mla_trace(true), false);
  REQUIRE(rows.contains("pseudo_mla_decode_fwd"));
  REQUIRE(rows.contains("pseudo_mla_prefill_fwd"));
  // The step: one chunk of 4 new tokens over 6 (sq*sq 16, sq*sk 24), no decode token. 8 heads:
  // flops = H * (2*sqsk - sqsq) * (d_qk + d_v): decode Q/K/V 64 wide, prefill V 128 wide.
  CHECK(rows.at("pseudo_mla_decode_fwd").gflops == Approx(8.0 * 32 * 128 / 1e9));
  CHECK(rows.at("pseudo_mla_prefill_fwd").gflops == Approx(8.0 * 32 * 192 / 1e9));
  CHECK(rows.at("pseudo_mla_decode_fwd").category == "InferenceAttention");
  // The stage-1 and reduce ops no longer have rows of their own.
  CHECK_FALSE(rows.contains("aiter::mla_decode_stage1_asm_fwd"));
  CHECK_FALSE(rows.contains("aiter::mla_reduce_v1"));
}
