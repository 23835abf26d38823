// AITER's MoE kernels (docs/deviations.md, "Serving-engine ops"): fused, stage-1 (up) and
// stage-2 (down) formulas on each kernel's argument layout, with numbers computed by hand from
// the formulas in moe_stages.cpp. Every case: M = 4 tokens, hidden K = 64, intermediate N = 128,
// E = 8 experts, top-2, so a uniform router activates E_active = 8 * (1 - (6/8)^4) = 5.46875.
#include <catch2/catch.hpp>

#include <string>

#include "json_text.hpp"
#include "loupe/core/prepare/perf_model.hpp"
#include "prepare_test_support.hpp"

namespace perf = loupe::core::prepare::perf;
using loupe::core::prepare::parse_json_text;
using loupe::test::evaluate_forward;
using loupe::test::model_param;
using loupe::test::op_args;

namespace {

constexpr double kActive = 5.46875;

}  // namespace

TEST_CASE("AITER CK MoE stages: up (gated) and down with packed FP4 weights",
          "[perf_model][serving][moe]") {
  // Stage 1: w1 [8, 2N, K], w2 [8, K, N], out [M, k, N] at [6].
  const auto up =
      evaluate_forward("aiter::ck_moe_stage1",
                       op_args("[[4,64],[8,256,64],[8,64,128],[16],[4],[1],[4,2,128]]",
                               R"(["c10::BFloat16","c10::BFloat16","c10::BFloat16","int","int",)"
                               R"("int","c10::BFloat16"])"));
  REQUIRE(up.ok());
  CHECK(up.flops.to_double() == 2.0 * 4 * 64 * 128 * 2 * 2);
  // input M*K*2 + E_active * 2 * K * N * 2 + output M*N*k*2 (written in the input's width).
  CHECK(up.bytes->to_double() == 512 + kActive * 2 * 64 * 128 * 2 + 2048);
  CHECK(model_param(up, "gated") == "True");
  CHECK(up.compute_spec == "matrix_bf16");
  CHECK(perf::find_model("aiter::ck_moe_stage1")->category == "MoE_unfused");

  // Stage 2 with FP4 weights: w1's stored K (32) is half the hidden size, so N = 2 * 64.
  const auto down =
      evaluate_forward("aiter::ck_moe_stage2",
                       op_args("[[4,2,64],[8,256,32],[8,64,64],[16],[4],[1],[4,64]]",
                               R"(["c10::BFloat16","c10::Float4_e2m1fn_x2",)"
                               R"("c10::Float4_e2m1fn_x2","int","int","int","c10::BFloat16"])"));
  REQUIRE(down.ok());
  CHECK(model_param(down, "inter_dim") == "128");
  CHECK(down.flops.to_double() == 2.0 * 4 * 128 * 64 * 2);
  // input M*N*k*2 + E_active * N * K * 0.5 + output M*K*2.
  CHECK(down.bytes->to_double() == 2048 + kActive * 128 * 64 * 0.5 + 512);

  // The pack's comparative MoE trace records two shapes only: no numbers (as TraceLens).
  CHECK(evaluate_forward("aiter::ck_moe_stage1", op_args("[[4096,8192],[8,8192,22016]]",
                                                         R"(["c10::bfloat16","c10::bfloat16"])"))
            .error == perf::ModelError::kFailed);
}

TEST_CASE("AITER CK-tile two-stage MoE GEMMs", "[perf_model][serving][moe]") {
  const auto up =
      evaluate_forward("aiter::moe_cktile2stages_gemm1_ck",
                       op_args("[[4,64],[8,256,32],[4,2,128]]",
                               R"(["c10::BFloat16","c10::Float4_e2m1fn_x2","c10::BFloat16"])"));
  REQUIRE(up.ok());
  CHECK(up.flops.to_double() == 262144.0);
  CHECK(up.bytes->to_double() == 512 + kActive * 2 * 64 * 128 * 0.5 + 2048);
  const auto down =
      evaluate_forward("aiter::moe_cktile2stages_gemm2_ck",
                       op_args("[[4,2,128],[8,64,64],[4,64]]",
                               R"(["c10::BFloat16","c10::Float4_e2m1fn_x2","c10::BFloat16"])"));
  REQUIRE(down.ok());
  CHECK(down.flops.to_double() == 131072.0);
  CHECK(down.bytes->to_double() == 2048 + kActive * 128 * 64 * 0.5 + 512);
  CHECK(model_param(down, "gated") == "<absent>");
}

TEST_CASE("AITER fused MoE: both projections and the weighted sum in one kernel",
          "[perf_model][serving][moe]") {
  perf::OpArgs args = op_args("[[4,64],[4,64],[8,256,64],[8,64,128]]",
                              R"(["c10::BFloat16","c10::Float8_e4m3fnuz",)"
                              R"("c10::Float8_e4m3fnuz","c10::Float8_e4m3fnuz"])");
  std::string concrete = "[";
  for (int i = 0; i < 9; ++i) concrete += i == 8 ? "\"2\"]" : "\"\",";
  args.concrete_inputs = parse_json_text(concrete.c_str());
  for (const char* name : {"aiter::fmoe_g1u1", "aiter::fmoe_fp8_blockscale_g1u1"}) {
    INFO(name);
    const auto r = evaluate_forward(name, args);
    REQUIRE(r.ok());
    // 2MKN*k*2 (gated up) + 2MKN*k (down) + MK(2k - 1) (weighted sum).
    CHECK(r.flops.to_double() == 262144.0 + 131072.0 + 4 * 64 * 3);
    // FP8 input and weights (1 B), bf16 output: 256 + E_active * N*K * 2 + E_active * N*K + 512.
    CHECK(r.bytes->to_double() == 256 + kActive * 128 * 64 * 2 + kActive * 128 * 64 + 512);
    CHECK(r.compute_spec == "matrix_fp8");
    CHECK(perf::find_model(name)->category == "MoE_fused");
  }
  // Without k (Concrete Inputs[8]) the kernel is not modeled.
  args.concrete_inputs = parse_json_text("[\"\"]");
  CHECK(evaluate_forward("aiter::fmoe_g1u1", args).error == perf::ModelError::kFailed);
}

TEST_CASE("flydsl MoE stages read the fused_moe_ arguments", "[perf_model][serving][moe]") {
  // (input [4, 64] bf16, w1 [8, 256, 32] and w2 [8, 64, 64] MXFP4, topk weights [4, 2]): the
  // hidden size 64 over w1's stored 32 unpacks N = 2 * 64 = 128; w1's 256 rows = 2N, gated.
  const auto args = op_args("[[4,64],[8,256,32],[8,64,64],[4,2]]",
                            R"(["c10::BFloat16","c10::Float4_e2m1fn_x2","c10::Float4_e2m1fn_x2"])");
  const auto up = evaluate_forward("pseudo_op::moe_flydsl_stage1", args);
  REQUIRE(up.ok());
  CHECK(up.flops.to_double() == 2.0 * 4 * 64 * 128 * 2 * 2);
  // input 4*64*2 + E_active * 2 * 64 * 128 * 0.5 + output 4*128*2 * 2 (input width).
  CHECK(up.bytes->to_double() == 512 + kActive * 8192 + 2048);
  CHECK(up.compute_spec == "matrix_fp4");  // the weights' dtype
  const auto down = evaluate_forward("pseudo_op::moe_flydsl_stage2", args);
  REQUIRE(down.ok());
  CHECK(down.flops.to_double() == 2.0 * 4 * 128 * 64 * 2);
  // input 4*128*2 * 2 + E_active * 128 * 64 * 0.5 + output 4*64*2.
  CHECK(down.bytes->to_double() == 2048 + kActive * 4096 + 512);
  CHECK(model_param(down, "gated") == "True");
}

TEST_CASE("vLLM Triton and GPTQ/AWQ MoE pseudo ops read top-k from their own args",
          "[perf_model][serving][moe]") {
  // Triton (GPT-OSS): hidden [4, 64], router [4, 8]; the intermediate size is taken as 64; the
  // MXFP4 kernel name makes the weights FP4 (0.5 B).
  perf::OpArgs triton = op_args("[[4,64],[4,8]]", R"(["BFloat16","BFloat16"])");
  triton.pseudo_args = parse_json_text(R"({"MoE topk": 2, "MoE GEMM gated": true})");
  triton.kernel_names = {"_matmul_ogs_NNT_bf16xbf16xmxfp4_16x256x128x1_swiglu"};
  const auto up = evaluate_forward("pseudo_op::moe_triton_unfused_up", triton);
  REQUIRE(up.ok());
  CHECK(up.flops.to_double() == 2.0 * 4 * 64 * 64 * 2 * 2);
  // input 4*64*2 + E_active * 2 * 64*64 * 0.5 + output 4*64*2 * 2.
  CHECK(up.bytes->to_double() == 512 + kActive * 4096 + 1024);
  CHECK(model_param(up, "weight_dtype") == "FP4");
  CHECK(up.compute_spec == "matrix_fp4");
  triton.pseudo_args = parse_json_text(R"({"MoE topk": 2, "MoE GEMM gated": false})");
  const auto down = evaluate_forward("pseudo_op::moe_triton_unfused_down", triton);
  REQUIRE(down.ok());
  CHECK(down.flops.to_double() == 2.0 * 4 * 64 * 64 * 2);
  CHECK(down.bytes->to_double() == 1024 + kActive * 2048 + 512);
  // A kernel name without the weights' format, or no top-k: no numbers.
  triton.kernel_names = {"_matmul_ogs_NNT_bf16xbf16xbf16"};
  CHECK(evaluate_forward("pseudo_op::moe_triton_unfused_down", triton).error ==
        perf::ModelError::kFailed);
  triton.pseudo_args = loupe::Json();
  CHECK(evaluate_forward("pseudo_op::moe_triton_unfused_up", triton).error ==
        perf::ModelError::kFailed);

  // GPTQ/AWQ: INT4 w1 [8, 256, 32] (2N = 256 rows, gated by default), w2 [8, 64, 64 packed].
  perf::OpArgs gptq = op_args("[[4,64],[8,256,32],[8,64,64]]", R"(["c10::BFloat16"])");
  gptq.pseudo_args = parse_json_text(R"({"MoE topk": 2})");
  const auto gptq_up = evaluate_forward("pseudo_op::moe_gptq_awq_up", gptq);
  REQUIRE(gptq_up.ok());
  CHECK(model_param(gptq_up, "inter_dim") == "128");
  CHECK(gptq_up.flops.to_double() == 2.0 * 4 * 64 * 128 * 2 * 2);
  CHECK(gptq_up.bytes->to_double() == 512 + kActive * 8192 + 2048);
  CHECK(gptq_up.compute_spec == "matrix_bf16");
  const auto gptq_down = evaluate_forward("pseudo_op::moe_gptq_awq_down", gptq);
  REQUIRE(gptq_down.ok());
  CHECK(gptq_down.flops.to_double() == 2.0 * 4 * 128 * 64 * 2);
  CHECK(gptq_down.bytes->to_double() == 2048 + kActive * 4096 + 512);
  CHECK(model_param(gptq_down, "weight_dtype") == "<absent>");
}
