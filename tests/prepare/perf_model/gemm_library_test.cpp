// Library GEMM entry points (gemm_library.cpp): Transformer Engine, vLLM dynamic-quant,
// Primus-Turbo hipBLASLt FP8/MXFP4 and AITER a4w4, each on its argument layout. Flops are
// 2·M·N·K (+ M·N with a bias); the bytes are worked out by hand below.
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

perf::OpArgs with_concrete(perf::OpArgs args, const std::string& concrete) {
  args.concrete_inputs = parse_json_text(concrete);
  return args;
}

// A JSON list of `n` strings, `at` holding the given values.
std::string list_of(int n, std::initializer_list<std::pair<int, const char*>> at) {
  std::string out = "[";
  for (int i = 0; i < n; ++i) {
    const char* v = "";
    for (const auto& [j, s] : at) {
      if (j == i) v = s;
    }
    out += (i ? ",\"" : "\"") + std::string(v) + "\"";
  }
  return out + "]";
}

}  // namespace

TEST_CASE("tex_ts::te_gemm_ts: column-major operands, transpose flags and bias",
          "[perf_model][gemm]") {
  // A [K=64, M=32] untransposed, B [K=64, N=16] transposed, D [32, 16] at [10].
  const char* dims = "[[64,32],[],[],[],[],[64,16],[],[],[],[],[32,16],[],[],[],[16],[],[],[],[]]";
  const std::string bf16 = list_of(
      19,
      {{0, "c10::BFloat16"}, {5, "c10::BFloat16"}, {10, "c10::BFloat16"}, {18, "c10::BFloat16"}});
  auto args =
      with_concrete(op_args(dims, bf16.c_str()), list_of(19, {{4, "0"}, {9, "1"}, {14, "bias"}}));
  const auto r = evaluate_forward("tex_ts::te_gemm_ts", args);
  REQUIRE(r.ok());
  CHECK(model_param(r, "M") == "32");
  CHECK(model_param(r, "N") == "16");
  CHECK(model_param(r, "K") == "64");
  CHECK(r.flops.to_double() == 2.0 * 32 * 16 * 64 + 32 * 16);
  // A 32*64*2 + B 64*16*2 + D 32*16*2 + bias 16*2.
  CHECK(r.bytes->to_double() == 4096 + 2048 + 1024 + 32);
  CHECK(r.compute_spec == "matrix_bf16");

  // Without a bias its dtype slot is empty: the bytes are unknown.
  args.concrete_inputs = parse_json_text(list_of(19, {{4, "0"}, {9, "1"}}));
  args.input_types = parse_json_text(
      list_of(19, {{0, "c10::BFloat16"}, {5, "c10::BFloat16"}, {10, "c10::BFloat16"}}));
  const auto no_bias = evaluate_forward("tex_ts::te_gemm_ts", args);
  REQUIRE(no_bias.ok());
  CHECK(no_bias.flops.to_double() == 65536.0);
  CHECK_FALSE(no_bias.bytes);
}

TEST_CASE("Transformer Engine v2 pseudo GEMMs write a 16-bit output", "[perf_model][gemm]") {
  const char* fp8 = R"(["c10::Float8_e4m3fnuz","c10::Float8_e4m3fnuz"])";
  for (const char* name : {"_Linear_yfwd_mm", "_LayerNormLinearBackward_wgrad_mm"}) {
    const auto r = evaluate_forward(name, op_args("[[128,256],[256,512]]", fp8));
    REQUIRE(r.ok());
    CHECK(r.flops.to_double() == 33554432.0);  // 2 * 128 * 512 * 256
    // A 128*256*1 + B 256*512*1 + out 128*512*2.
    CHECK(r.bytes->to_double() == 32768 + 131072 + 131072);
    CHECK(r.compute_spec == "matrix_fp8");
  }
  CHECK(evaluate_forward("_Linear_yfwd_mm", op_args("[[128,256],[256,512]]",
                                                    R"(["c10::Float8_e4m3fnuz","c10::BFloat16"])"))
            .error == perf::ModelError::kFailed);
}

TEST_CASE("vllm::gemm_with_dynamic_quant: the first two 2-D operands", "[perf_model][gemm]") {
  // x [64, 4096] bf16; the packed 4-bit weight [11008, 2048] follows a scalar.
  const auto r =
      evaluate_forward("vllm::gemm_with_dynamic_quant",
                       op_args("[[64,4096],[],[11008,2048],[11008,128]]",
                               R"(["c10::BFloat16","","unsigned char","unsigned char"])"));
  REQUIRE(r.ok());
  CHECK(model_param(r, "N") == "11008");
  CHECK(r.flops.to_double() == 5771362304.0);  // 2 * 64 * 11008 * 4096
  // Every operand at x's width: 64*4096*2 + 4096*11008*2 + 64*11008*2.
  CHECK(r.bytes->to_double() == 92110848.0);
  CHECK(evaluate_forward("vllm::gemm_with_dynamic_quant",
                         op_args("[[64,4096,1]]", R"(["c10::BFloat16","c10::BFloat16"])"))
            .error == perf::ModelError::kFailed);
}

TEST_CASE("hipBLASLt FP8 and MXFP4 GEMMs, AITER a4w4", "[perf_model][gemm]") {
  const char* fp8 = R"(["c10::Float8_e4m3fnuz","float","c10::Float8_e4m3fnuz","float","Scalar"])";
  auto args = with_concrete(op_args("[[128,256],[],[256,64],[],[]]", fp8),
                            R"(["","","","","15","False","False","False",""])");
  const auto nn = evaluate_forward("primus_turbo::hipblaslt_gemm_fp8", args);
  REQUIRE(nn.ok());
  CHECK(model_param(nn, "M") == "128");
  CHECK(model_param(nn, "N") == "64");
  CHECK(model_param(nn, "dtype_scaleA") == "float");
  CHECK(nn.flops.to_double() == 4194304.0);  // 2 * 128 * 64 * 256
  // FP8 A 128*256 + B 256*64, 16-bit output 128*64*2.
  CHECK(nn.bytes->to_double() == 32768 + 16384 + 16384);
  // transC swaps the operands and inverts the flags: M and N trade places.
  args.concrete_inputs = parse_json_text(R"(["","","","","15","False","False","True",""])");
  const auto swapped = evaluate_forward("primus_turbo_cpp_extension::hipblaslt_gemm_fp8", args);
  REQUIRE(swapped.ok());
  CHECK(model_param(swapped, "M") == "64");
  CHECK(model_param(swapped, "N") == "128");

  // MXFP4: A [128, 128 packed], B [256, 128 packed] transposed: K = 256. Bytes: packed A
  // 128*128 + B 256*128, one scale byte per 32 of K per row (128*8 + 256*8), output 128*256*2.
  const double fp4_bytes = 16384 + 32768 + 1024 + 2048 + 65536;
  const auto hip = evaluate_forward(
      "primus_turbo::hipblaslt_gemm_fp4",
      with_concrete(op_args("[[128,128],[128,8],[256,128],[256,8],[]]",
                            R"(["c10::Float4_e2m1fn_x2","c10::Float8_e8m0fnu",)"
                            R"("c10::Float4_e2m1fn_x2","c10::Float8_e8m0fnu","Scalar"])"),
                    R"(["","","","","15","False","True","False",""])"));
  REQUIRE(hip.ok());
  CHECK(model_param(hip, "K") == "256");
  CHECK(hip.flops.to_double() == 16777216.0);  // 2 * 128 * 256 * 256
  CHECK(hip.bytes->to_double() == fp4_bytes);
  CHECK(hip.compute_spec == "matrix_fp4");

  // AITER's a4w4 is always NT with (A, B, scaleA, scaleB): the same GEMM.
  for (const char* name : {"aiter::gemm_a4w4", "aiter::_gemm_a4w4_asm"}) {
    const auto a4w4 =
        evaluate_forward(name, op_args("[[128,128],[256,128],[128,8],[256,8],[128,256]]",
                                       R"(["c10::Float4_e2m1fn_x2","c10::Float4_e2m1fn_x2",)"
                                       R"("c10::Float8_e8m0fnu","c10::Float8_e8m0fnu",""])"));
    REQUIRE(a4w4.ok());
    CHECK(a4w4.flops.to_double() == 16777216.0);
    CHECK(a4w4.bytes->to_double() == fp4_bytes);
  }
  // Operands of unknown width: no numbers.
  CHECK(evaluate_forward("aiter::gemm_a4w4",
                         op_args("[[128,128],[256,128]]", R"(["c10::ComplexFloat","x"])"))
            .error == perf::ModelError::kFailed);
}
