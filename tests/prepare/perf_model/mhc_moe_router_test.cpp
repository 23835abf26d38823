// DeepSeek-V4 mHC kernels, AITER's top-k softplus router and SGLang's Triton fused-MoE ops
// (mhc.cpp, moe_stages.cpp, moe_aux.cpp): flops and bytes computed by hand for small shapes.
// mHC cases: M = 4 tokens, n = 4 streams of C = 64, hc3 = n² + 2n = 24, K = n·C = 256,
// split_k = 2, bf16 activations (2 B), fp32 mixes/projection/partials (4 B).
#include <catch2/catch.hpp>

#include "loupe/core/prepare/perf_model.hpp"
#include "prepare_test_support.hpp"

namespace perf = loupe::core::prepare::perf;
using loupe::test::evaluate_forward;
using loupe::test::model_param;
using loupe::test::op_args;

TEST_CASE("mHC post, pre GEMM, pre epilogue and fused post+pre", "[perf_model][mhc]") {
  const auto post =
      evaluate_forward("aiter::mhc_post", op_args("[[4,4,64],[4,64],[4,4,64],[4,4,1],[4,4,4]]",
                                                  R"(["c10::BFloat16","c10::BFloat16"])"));
  REQUIRE(post.ok());
  CHECK(post.flops.to_double() == 10240.0);  // 2 * 4 * 4 * 64 * (4 + 1)
  // x 512 + residual 2048 + mixes (4*4 + 4*4*4) * 4 = 320 + next residual 2048.
  CHECK(post.bytes->to_double() == 4928.0);
  CHECK(model_param(post, "hc3") == "None");
  CHECK(post.compute_spec == "vector_bf16");

  const auto pre = evaluate_forward(
      "aiter::mhc_pre_gemm_sqrsum",
      op_args("[[2,4,24],[2,4],[4,4,64],[24,256]]", R"(["float","float","c10::BFloat16"])"));
  REQUIRE(pre.ok());
  CHECK(pre.flops.to_double() == 49152.0);  // 2 * 4 * 24 * 256
  // x 2048 + fn 24*256*4 = 24576 + partials 2*4*24*4 = 768 + square sums 2*4*4 = 32.
  CHECK(pre.bytes->to_double() == 27424.0);
  CHECK(pre.compute_spec == "matrix_bf16");

  const char* big_fuse_types =
      R"(["float","float","c10::BFloat16","float","float","float","float","c10::BFloat16"])";
  const auto big = evaluate_forward(
      "aiter::mhc_pre_big_fuse_rmsnorm",
      op_args("[[4,4,1],[4,4,4],[4,64],[2,4,24],[2,4],[3],[24],[4,4,64],[64]]", big_fuse_types));
  REQUIRE(big.ok());
  CHECK(big.flops.to_double() == 3328.0);  // 2*4*64*4 + 5*4*64
  // residual 2048 + partials 768 + norm weight 128 + layer input 512 + mixes 320.
  CHECK(big.bytes->to_double() == 3776.0);

  const auto fused =
      evaluate_forward("aiter::mhc_fused_post_pre_gemm_sqrsum",
                       op_args("[[2,4,24],[2,4],[4,4,64],[4,64],[4,4,64],[4,4,1],[4,4,4],[24,256]]",
                               R"(["float","float","c10::BFloat16","c10::BFloat16"])"));
  REQUIRE(fused.ok());
  CHECK(fused.flops.to_double() == 10240.0 + 49152.0);
  // layer input 512 + residual in, next residual written and read 3*2048 + mixes 320 + fn
  // 24576 + partials 768 + 32.
  CHECK(fused.bytes->to_double() == 32352.0);

  // An activation dtype of unknown width: flops only. Too few operands: no numbers.
  const auto unknown = evaluate_forward(
      "aiter::mhc_post", op_args("[[4,4,64],[4,64]]", R"(["x","c10::ComplexFloat"])"));
  REQUIRE(unknown.ok());
  CHECK_FALSE(unknown.bytes);
  CHECK(evaluate_forward("aiter::mhc_pre_gemm_sqrsum", op_args("[[2,4,24]]", "[]")).error ==
        perf::ModelError::kFailed);
}

TEST_CASE("MoE routers: top-k softplus and SGLang's shared-expert append", "[perf_model][moe]") {
  // topk_softplus(weights [32, 8], ids [32, 8], gating [32, 256] bf16).
  const auto topk =
      evaluate_forward("aiter::topk_softplus",
                       op_args("[[32,8],[32,8],[32,256]]", R"(["float","int","c10::BFloat16"])"));
  REQUIRE(topk.ok());
  CHECK(topk.flops.to_double() == 49152.0);  // 6 * 32 * 256
  // gating 32*256*2 + bias 256*4 + weights and ids 2 * 32*8*4.
  CHECK(topk.bytes->to_double() == 16384 + 1024 + 2048);
  CHECK(model_param(topk, "E") == "256");
  CHECK(topk.compute_spec == "vector_bf16");

  // ids [16, 9] int64 and weights [16, 9] fp32, both read and written back.
  const auto append =
      evaluate_forward("sglang_profiler::fused_moe_triton_kernels_fused_append_shared_experts",
                       op_args("[[16,9],[16,9]]", R"(["long int","float"])"));
  REQUIRE(append.ok());
  CHECK(append.flops.to_double() == 144.0);
  CHECK(append.bytes->to_double() == 2 * (144 * 8 + 144 * 4));
  CHECK(append.compute_spec == "vector_fp32");
  CHECK(evaluate_forward("sglang_profiler::fused_moe_triton_kernels_fused_append_shared_experts",
                         op_args("[[16,9],[16,5]]", R"(["int","float"])"))
            .error == perf::ModelError::kFailed);
}

TEST_CASE("SGLang Triton fused-MoE grouped GEMM", "[perf_model][moe]") {
  // 4 tokens routed to 2 of 8 experts (8 token-expert rows), FP8 A and B [8, 256, 64], bf16 C.
  // A uniform router activates 8 * (1 - (6/8)^4) = 5.46875 experts.
  const auto r = evaluate_forward(
      "sglang_profiler::fused_moe_triton_kernels_invoke_fused_moe_kernel",
      op_args("[[4,64],[8,256,64],[],[8,256],[],[],[4,2],[64],[4,2]]",
              R"(["c10::Float8_e4m3fn","c10::Float8_e4m3fn","","c10::BFloat16"])"));
  REQUIRE(r.ok());
  CHECK(model_param(r, "m_work") == "8");
  CHECK(r.flops.to_double() == 262144.0);  // 2 * 8 * 256 * 64
  // A 8*64*1 + weights 5.46875*256*64*1 + C 8*256*2.
  CHECK(r.bytes->to_double() == 512 + 89600 + 4096);
  CHECK(r.compute_spec == "matrix_fp8");
  CHECK(evaluate_forward("sglang_profiler::fused_moe_triton_kernels_invoke_fused_moe_kernel",
                         op_args("[[4,64],[8,256,64]]", "[]"))
            .error == perf::ModelError::kFailed);
}
