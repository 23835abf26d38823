// Helper vectors of spec docs/contracts/fusion.md T16-T19, T21 (t_orch.out), plus the pandas float
// parser.
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "candidate.hpp"
#include "loupe/core/model/csv_table.hpp"
#include "loupe/core/prepare/fusion_candidates.hpp"
#include "pandas_float.hpp"
#include "perf_lookup.hpp"
#include "postprocess.hpp"

namespace fc = loupe::core::prepare::fusion;
using loupe::core::prepare::strip_module_name;

namespace {

// The kernel's names are views: string literals here, the trace model's strings in a run.
fc::CandidateKernel kernel(std::string_view name, std::string_view type = "Unknown") {
  fc::CandidateKernel k;
  k.name = name;
  k.type = type;
  return k;
}

fc::Candidate candidate(std::vector<fc::CandidateKernel> kernels) {
  fc::Candidate c;
  c.kernels = std::move(kernels);
  return c;
}

}  // namespace

TEST_CASE("strip and eligibility helpers (T16)", "[prepare][fusion]") {
  CHECK(strip_module_name("nn.Module: Linear_0") == "Linear");
  CHECK(strip_module_name("nn.Module: Qwen2MLP_12") == "Qwen2MLP");
  CHECK(strip_module_name("aten::linear") == "aten::linear");
  CHECK(strip_module_name("fused_op_3") == "fused_op");
  CHECK(strip_module_name("nn.Module: conv_1x1_2") == "conv_1x1");
  CHECK(strip_module_name("nn.Module: _0").empty());
  CHECK_FALSE(fc::kernel_eligible("ncclKernel"));
  CHECK_FALSE(fc::kernel_eligible("Memcpy HtoD"));
  CHECK_FALSE(fc::kernel_eligible("attn_fwd"));
  CHECK_FALSE(fc::kernel_eligible("SiLU_And_Mul"));
  CHECK_FALSE(fc::kernel_eligible("my_fmha_kernel"));
  CHECK(fc::kernel_eligible("ew_add"));
  CHECK(fc::kernel_already_fused("Flash_Fwd_kernel"));
  CHECK_FALSE(fc::kernel_already_fused("x"));
}

TEST_CASE("compute_data_in_out (T17)", "[prepare][fusion]") {
  using fc::compute_data_in_out;
  const auto check = [](fc::DataSplit s, std::optional<double> in, std::optional<double> out) {
    CHECK(s.in_mb == in);
    CHECK(s.out_mb == out);
  };
  check(compute_data_in_out("GEMM", "{'M': 8944, 'N': 2816, 'K': 1024}", 71.0078125), 22.96875,
        48.0390625);
  check(compute_data_in_out("GEMM", "{'M': 8944, 'N': 2816}", 71.0), 35.5, 35.5);
  check(compute_data_in_out("GEMM", "{'M': 8944, 'N': 2816, 'K': 0}", 71.0), 35.5, 35.5);
  check(compute_data_in_out("reduce", "{'x': 1}", 69.875), 34.9375 * 2, 0.0);
  check(compute_data_in_out("reduce", "", 69.875), 69.875, 0.0);
  check(compute_data_in_out("elementwise", "{'shape_in1': (2, 3), 'shape_in2': (2, 3)}",
                            69.90911865234375),
        46.6060791015625, 23.30303955078125);
  check(compute_data_in_out("elementwise", "{'op_shape': (16, 559, 1024)}", 69.875), 34.9375,
        34.9375);
  check(compute_data_in_out("other", "", 10.0), 5.0, 5.0);
  check(compute_data_in_out("GEMM", "", std::nullopt), std::nullopt, std::nullopt);
  check(compute_data_in_out("reduce", "", 0.0), 0.0, 0.0);
  check(compute_data_in_out("other", "{bad", 10.0), 5.0, 5.0);
  CHECK_THROWS_AS(compute_data_in_out("GEMM", "[1,2]", 10.0), fc::ExtractionError);
}

TEST_CASE("is_gemm_norm_only (T18)", "[prepare][fusion]") {
  CHECK(fc::is_gemm_norm_only(candidate({kernel("Cijk", "GEMM"), kernel("rmsnorm2d", "RMSNorm")})));
  CHECK_FALSE(fc::is_gemm_norm_only(candidate({kernel("Cijk", "GEMM"), kernel("ew_add")})));
  CHECK(fc::is_gemm_norm_only(
      candidate({kernel("miopen_conv_fwd"), kernel("MIOpenBatchNormFwdInfer")})));
  CHECK(fc::is_gemm_norm_only(candidate({kernel("convert_fp8"), kernel("layernorm_k")})));
  CHECK_FALSE(fc::is_gemm_norm_only(candidate({kernel("a"), kernel("layernorm")})));
  CHECK_FALSE(fc::is_gemm_norm_only(candidate({kernel("Cijk", "GEMM"), kernel("Cijk2", "GEMM")})));
  CHECK_FALSE(fc::is_gemm_norm_only(
      candidate({kernel("kernel_moe_gemm", "MoE GEMM (CK)"), kernel("rmsnorm", "RMSNorm")})));
}

TEST_CASE("attention narrowing and kernel-set dedup (T19, T21)", "[prepare][fusion]") {
  const auto table = loupe::core::parse_csv(
      "name,op category,Input Dims,Data Moved (MB),perf_params,kernel_details_summary\n"
      "aten::mm,GEMM,\"((1, 2), (2, 3))\",1.0,,\"[{'name': 'Cijk_qk'}]\"\n"
      "aten::bmm,GEMM,\"((1, 2), (2, 3))\",1.0,,\"[{'name': 'Cijk_pv'}]\"\n");
  const auto lookup = fc::PerfLookup::build(table);
  std::size_t first = 0;
  std::size_t last = 0;
  const std::vector<fc::CandidateKernel> attn = {
      kernel("rope_a"),     kernel("Cijk_qk"), kernel("ew_scale"), kernel("softmax_fwd"),
      kernel("ew_dropout"), kernel("Cijk_pv"), kernel("ew_out")};
  REQUIRE(fc::attention_core(attn, lookup, first, last));
  CHECK(first == 1);
  CHECK(last == 5);
  CHECK_FALSE(fc::attention_core({kernel("Cijk_qk"), kernel("softmax")}, lookup, first, last));
  REQUIRE(
      fc::attention_core({kernel("Cijk_qk_longer_suffix"), kernel("SoftMax"), kernel("Cijk_pv")},
                         lookup, first, last));
  CHECK(first == 0);
  CHECK(last == 2);
  CHECK_FALSE(fc::attention_core({}, lookup, first, last));

  std::vector<fc::Candidate> cands;
  const auto add = [&](std::string name, std::size_t chain, bool with_kernels) {
    fc::Candidate c;
    c.module_name = std::move(name);
    c.parent_chain.assign(chain, "p");
    if (with_kernels) c.kernels = {kernel("A"), kernel("B")};
    cands.push_back(std::move(c));
  };
  add("aten::linear", 3, true);
  add("nn.Module: Linear_0", 1, true);
  add("nn.Module: Other_0", 2, true);
  add("file.py(1): forward", 0, true);
  add("empty", 0, false);
  const auto kept = fc::dedup_by_kernel_set(std::move(cands));
  REQUIRE(kept.size() == 1);
  CHECK(kept[0].module_name == "nn.Module: Other_0");
}

// The §1.6 shape-key vectors (T11) live with the shared code in sdk/compute/tests.
TEST_CASE("pandas float parsing", "[prepare][fusion]") {
  // Q24: pandas reads 0.06824493408203125 as 0.0682449340820312.
  CHECK(loupe::core::prepare::pandas_parse_float("0.06824493408203125") == 0.0682449340820312);
  CHECK(loupe::core::prepare::pandas_parse_float("71.0078125") == 71.0078125);
  CHECK_FALSE(loupe::core::prepare::pandas_parse_float("abc").has_value());
}
