// Training-side ops TraceLens models (training_ops.cpp, conv.cpp, elementwise.cpp): MoE
// dispatch/combine, causal conv1d, fused RoPE, cross entropy, Mamba-2 SSD, the fused
// ConvBias(ReLU) forward and Liger's SiLU-mul, with flops and bytes computed by hand.
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

TEST_CASE("MoE dispatch/combine move the tokens, forward and backward", "[perf_model][training]") {
  const auto args = op_args("[[4096,7168],[4096,8]]", R"(["c10::BFloat16","long int"])");
  for (const char* name : {"MoEDispatch", "MoECombine"}) {
    for (const auto direction : {perf::Direction::kForward, perf::Direction::kBackward}) {
      const auto r = perf::evaluate(name, args, direction);
      REQUIRE(r.ok());
      CHECK(r.flops.to_double() == 0.0);
      CHECK(r.bytes->to_double() == 4096.0 * 7168 * 2);
      CHECK(r.compute_spec.empty());
    }
  }
  // Without a dtype the width is unknown: no bytes.
  const auto untyped = evaluate_forward("MoEDispatch", op_args("[[4096,7168]]", "[]"));
  REQUIRE(untyped.ok());
  CHECK_FALSE(untyped.bytes);
  CHECK(model_param(untyped, "bpe") == "None");
}

TEST_CASE("causal conv1d, fused RoPE and cross entropy", "[perf_model][training]") {
  // x [2, 512, 1024], w [512, 4], bias [512], bf16.
  const auto conv = evaluate_forward(
      "DaoAILab::_causal_conv1d_fwd_cpp",
      op_args("[[2,512,1024],[512,4],[512]]", R"(["c10::BFloat16","c10::BFloat16"])"));
  REQUIRE(conv.ok());
  CHECK(conv.flops.to_double() == 8388608.0);  // 2 * 2 * 512 * 1024 * 4
  // x 2097152 + w 4096 + y 2097152 + bias 1024.
  CHECK(conv.bytes->to_double() == 4199424.0);
  CHECK(conv.compute_spec == "matrix_bf16");

  // t [128, 2, 16, 64] = 262144 elements: 3 flops each, read and written at 2 bytes.
  const auto rope = evaluate_forward(
      "FusedRoPEFunc", op_args("[[128,2,16,64],[128,1,1,64]]", R"(["c10::BFloat16","float"])"));
  REQUIRE(rope.ok());
  CHECK(rope.flops.to_double() == 786432.0);
  CHECK(rope.bytes->to_double() == 1048576.0);
  CHECK(rope.compute_spec == "vector_bf16");
  CHECK(perf::find_model("FusedRoPEFunc")->bwd_category.empty());

  // logits [8, 1, 32000] bf16: 5 * 8 * 32000 flops; logits 512000 B + int64 targets 64 +
  // fp32 losses 32.
  const auto ce = evaluate_forward(
      "CrossEntropyFunction", op_args("[[8,1,32000],[8,1]]", R"(["c10::BFloat16","long int"])"));
  REQUIRE(ce.ok());
  CHECK(ce.flops.to_double() == 1280000.0);
  CHECK(ce.bytes->to_double() == 512096.0);
  CHECK(model_param(ce, "logits_shape") == "[8, 1, 32000]");
  CHECK(evaluate_forward("CrossEntropyFunction", op_args("[[]]", "[]")).error ==
        perf::ModelError::kFailed);
}

TEST_CASE("Mamba-2 SSD: state size from the fused projection", "[perf_model][training]") {
  // H = 8 heads of P = 64, G = 1 group, chunk 128 (default): d_inner 512; D = 1064 leaves
  // 2·G·N = 1064 - 1024 - 8 = 32, so N = 16; conv channels 512 + 32 = 544, kernel 4.
  perf::OpArgs args =
      op_args("[[2,256,1064],[544,4],[544],[8],[8],[8]]",
              R"(["c10::BFloat16","c10::BFloat16","c10::BFloat16","float","float","float"])");
  std::string concrete = "[";
  for (int i = 0; i < 17; ++i) concrete += i == 15 ? "\"64\"," : i == 16 ? "\"1\"]" : "\"\",";
  args.concrete_inputs = parse_json_text(concrete);
  const auto r = evaluate_forward("MambaSplitConv1dScanCombinedFn", args);
  REQUIRE(r.ok());
  CHECK(model_param(r, "N") == "16");
  CHECK(model_param(r, "C") == "128");
  // conv 2*2*544*256*4 = 2228224; C·B^T 2*2*1*256*128*16 = 2097152; M·X 2*2*8*256*128*64 =
  // 67108864; B^T·X and C·h 2*2*8*256*16*64 = 8388608 each.
  CHECK(r.flops.to_double() == 2228224.0 + 2097152 + 67108864 + 2 * 8388608.0);
  // input 2*256*1064*2 + conv weight 544*4*2 + conv bias 544*2 + dt_bias/A/D 3 * 8*4 + output
  // 2*256*512*2.
  CHECK(r.bytes->to_double() == 1089536.0 + 4352 + 1088 + 96 + 524288);
  const auto bwd =
      perf::evaluate("MambaSplitConv1dScanCombinedFn", args, perf::Direction::kBackward);
  REQUIRE(bwd.ok());
  CHECK(bwd.flops.to_double() == r.flops.to_double());
  // A projection width that leaves no whole state size is not modeled.
  args.input_dims = parse_json_text("[[2,256,1065],[544,4],[544],[8],[8],[8]]");
  CHECK(evaluate_forward("MambaSplitConv1dScanCombinedFn", args).error ==
        perf::ModelError::kFailed);
}

TEST_CASE("ConvBias forward and Liger SiLU-mul", "[perf_model][training]") {
  // input [2, 16, 8, 8], weight [32, 16, 3, 3], bias [32], stride 1, padding 1: y [2, 32, 8, 8].
  perf::OpArgs args = op_args("[[2,16,8,8],[32,16,3,3],[32]]",
                              R"(["c10::BFloat16","c10::BFloat16","c10::BFloat16"])");
  args.concrete_inputs = parse_json_text(R"(["","","","1","1"])");
  for (const char* name : {"ConvBias_", "ConvBiasReLU_"}) {
    const auto r = evaluate_forward(name, args);
    REQUIRE(r.ok());
    // 4096 outputs * 2 * 16*3*3 + 4096 bias adds.
    CHECK(r.flops.to_double() == 1183744.0);
    // x 2048 + w 4608 + bias 32 + y 4096 elements at 2 bytes.
    CHECK(r.bytes->to_double() == 21568.0);
    CHECK(model_param(r, "stride") == "(1, 1)");
  }
  // Stride 2 without padding: (8 - 2 - 1) / 2 + 1 = 3.5 -> 3, y [2, 32, 3, 3].
  args.concrete_inputs = parse_json_text(R"(["","","","2",""])");
  const auto strided = evaluate_forward("ConvBias_", args);
  REQUIRE(strided.ok());
  CHECK(strided.flops.to_double() == 576.0 * 288 + 576);
  CHECK(strided.bytes->to_double() == (2048 + 4608 + 32 + 576) * 2.0);

  // SiLU(a) * b on [4, 1024] bf16: one flop per output, a, b and the output at 2 bytes; a
  // third operand is not an output (unlike aten's binary ops).
  perf::OpArgs liger =
      op_args("[[4,1024],[4,1024],[4,1024]]", R"(["c10::BFloat16","c10::BFloat16","float"])");
  liger.input_strides = parse_json_text("[[1024,1],[1024,1],[1024,1]]");
  const auto silu = evaluate_forward("LigerSiLUMulFunction", liger);
  REQUIRE(silu.ok());
  CHECK(silu.flops.to_double() == 4096.0);
  CHECK(silu.bytes->to_double() == 4096.0 * 2 * 3);
  CHECK(model_param(silu, "dtype_in1_in2_out") == "('c10::BFloat16', 'c10::BFloat16', None)");
}
