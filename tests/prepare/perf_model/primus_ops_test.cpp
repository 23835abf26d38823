// Primus-Turbo quantizers and Primus's fused LayerNorm + modulation (primus_ops.cpp), with
// flops and bytes computed by hand.
#include <catch2/catch.hpp>

#include "loupe/core/prepare/perf_model.hpp"
#include "prepare_test_support.hpp"

namespace perf = loupe::core::prepare::perf;
using loupe::test::evaluate_forward;
using loupe::test::model_param;
using loupe::test::op_args;

TEST_CASE("Primus-Turbo FP8 and dual MXFP4 quantizers", "[perf_model][primus]") {
  const auto fp8 = evaluate_forward("primus_turbo::quantize_fp8_tensorwise",
                                    op_args("[[128,256],[],[]]", R"(["c10::BFloat16","float"])"));
  REQUIRE(fp8.ok());
  CHECK(fp8.flops.to_double() == 32768.0);
  CHECK(fp8.bytes->to_double() == 32768 * 2 + 32768);  // bf16 read, FP8 written
  CHECK(model_param(fp8, "dtype_in_out") == "('c10::BFloat16', 'c10::Float8_e4m3fnuz')");
  CHECK(fp8.compute_spec == "vector_bf16");

  // [64, 100]: 6400 bf16 read; two packed FP4 copies of 3200 bytes; row scales 64 * ceil(100/32)
  // = 256, column scales 100 * ceil(64/32) = 200.
  const auto dual = evaluate_forward("primus_turbo_cpp_extension::quantize_mxfp4_dual",
                                     op_args("[[64,100]]", R"(["c10::BFloat16"])"));
  REQUIRE(dual.ok());
  CHECK(dual.flops.to_double() == 6400.0);
  CHECK(dual.bytes->to_double() == 12800 + 6400 + 256 + 200);
  // Odd element counts round each packed copy up: [3, 5] -> 30 + 2 * 8 + 3 + 5.
  const auto odd =
      evaluate_forward("primus::quantize_mxfp4_dual", op_args("[[3,5]]", R"(["c10::BFloat16"])"));
  REQUIRE(odd.ok());
  CHECK(odd.bytes->to_double() == 54.0);
  CHECK(
      evaluate_forward("primus::quantize_mxfp4_dual", op_args("[[2,3,5]]", R"(["c10::BFloat16"])"))
          .error == perf::ModelError::kFailed);
}

TEST_CASE("Primus fused LayerNorm + modulation, forward and backward", "[perf_model][primus]") {
  // x [T 16, B 2, H 64] bf16: 2048 elements.
  const auto fwd = evaluate_forward(
      "primus::fused_ln_modulate",
      op_args("[[16,2,64],[2,64],[2,64],[]]", R"(["c10::BFloat16","c10::BFloat16"])"));
  REQUIRE(fwd.ok());
  CHECK(fwd.flops.to_double() == 2048 * 12.0);
  // x read + y written 2 * 4096, scale/shift 2 * 2*64*2 = 512, mean/rstd 2 * 16*2*4 = 256.
  CHECK(fwd.bytes->to_double() == 8192 + 512 + 256);
  CHECK(model_param(fwd, "num_channels") == "64");
  CHECK(fwd.compute_spec == "vector_bf16");

  const auto bwd = evaluate_forward(
      "primus::fused_ln_modulate_backward",
      op_args("[[16,2,64],[16,2,64],[32],[32],[2,64]]", R"(["c10::BFloat16","c10::BFloat16"])"));
  REQUIRE(bwd.ok());
  CHECK(bwd.flops.to_double() == 2048 * 15.0);
  // grad_out + x_norm 8192, mean/rstd 256, x_grad 4096, scale/shift grads 512, mod grad 256.
  CHECK(bwd.bytes->to_double() == 8192 + 256 + 4096 + 512 + 256);
  CHECK(model_param(bwd, "output_mask") == "[True, True, True]");
  CHECK(perf::find_model("primus::fused_ln_modulate_backward")->category == "NORM_bwd");
  // A dtype of unknown width makes the byte formula fail, as TraceLens's does.
  CHECK(evaluate_forward("primus::fused_ln_modulate", op_args("[[16,2,64]]", R"(["x"])")).error ==
        perf::ModelError::kFailed);
}
