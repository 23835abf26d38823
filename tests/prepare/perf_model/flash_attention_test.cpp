// Flash-attention library ops (flash_attention.cpp): flash-attn v2 backward and varlen, v3
// forward, AITER MHA / FMHA v3 entry points and Evoformer, with flops and bytes computed by
// hand from the SDPA cost (Q·K^T and P·V: 2·N_Q·N_KV·d each per head; the backward adds the
// recomputed S, dV, dP, dQ, dK and the GQA head reductions).
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

perf::OpArgs with_scalars(perf::OpArgs args, const char* concrete, const char* strides = nullptr) {
  args.concrete_inputs = parse_json_text(concrete);
  if (strides != nullptr) args.input_strides = parse_json_text(strides);
  return args;
}

constexpr const char* kBf16x5 = R"(["c10::BFloat16","c10::BFloat16","c10::BFloat16","int","int"])";

}  // namespace

TEST_CASE("flash-attn varlen forward: the longest sequence plus evenly shared rest",
          "[perf_model][attention]") {
  // q [300 tokens, 8 heads, 64], k/v [500 tokens, 2 heads, 64], 3 sequences each; the longest
  // are 120 (q) and 200 (kv), so the other two are (300-120)//2 = 90 and (500-200)//2 = 150.
  const auto args = with_scalars(op_args("[[300,8,64],[500,2,64],[500,2,64],[4],[4]]", kBf16x5),
                                 R"(["","","","","","120","200","0.0","0.125","False"])",
                                 "[[512,64,1],[128,64,1],[128,64,1],[1],[1]]");
  const auto r = evaluate_forward("flash_attn::_flash_attn_varlen_forward", args);
  REQUIRE(r.ok());
  // longest: 8 heads * 2*120*200*64 * 2 (QK, PV) = 49,152,000; each other: 8*2*90*150*64*2 =
  // 27,648,000, twice.
  CHECK(r.flops.to_double() == 49152000.0 + 2 * 27648000.0);
  // Q 300*8*64 + K 500*2*64 + V 500*2*64 + O 300*8*64 = 435,200 elements at 2 bytes.
  CHECK(r.bytes->to_double() == 870400.0);
  CHECK(model_param(r, "num_seqs_q") == "3");
  CHECK(model_param(r, "max_seqlen_kv") == "200.0");
  CHECK(model_param(r, "q_stride") == "(512, 64, 1)");
  CHECK(r.compute_spec == "matrix_bf16");

  // Causal with equal q/kv lengths halves both parts: (14,745,600 + 2 * 8,294,400).
  const auto causal =
      evaluate_forward("flash_attn::_flash_attn_varlen_forward",
                       with_scalars(op_args("[[300,8,64],[300,2,64],[300,2,64],[4],[4]]", kBf16x5),
                                    R"(["","","","","","120","120","0.0","0.125","True"])",
                                    "[[512,64,1],[128,64,1],[128,64,1],[1],[1]]"));
  REQUIRE(causal.ok());
  CHECK(causal.flops.to_double() == 14745600.0 + 2 * 8294400.0);

  // Three q sequences against a single kv sequence: the shared kv length divides by zero.
  const auto bad =
      evaluate_forward("flash_attn::_flash_attn_varlen_forward",
                       with_scalars(op_args("[[300,8,64],[500,2,64],[500,2,64],[4],[2]]", kBf16x5),
                                    R"(["","","","","","120","500","0.0","0.125","False"])",
                                    "[[512,64,1],[128,64,1],[128,64,1],[1],[1]]"));
  CHECK(bad.error == perf::ModelError::kFailed);
}

TEST_CASE("flash-attn varlen backward", "[perf_model][attention]") {
  // (dout, q, k, v, out, lse, dq, dk, dv, cu_q, cu_k, max_q, max_k, dropout, scale, causal).
  const char* dims =
      "[[300,8,64],[300,8,64],[500,2,64],[500,2,64],[300,8,64],[8,300],[],[],[],[4],[4]]";
  const auto r = evaluate_forward(
      "flash_attn::_flash_attn_varlen_backward",
      with_scalars(op_args(dims, R"(["c10::BFloat16","c10::BFloat16"])"),
                   R"(["","","","","","","","","","","","120","200","0.0","0.125","False"])",
                   "[[512,64,1],[512,64,1],[128,64,1],[128,64,1]]"));
  REQUIRE(r.ok());
  // Per shape, d = 64 everywhere: five 2·N_Q·N_KV·d products per head (S recompute, dV, dP,
  // dQ, dK) plus dV and dK summed from 8 to 2 heads (N_KV·d·3 each).
  // longest: 5 * 8*2*120*200*64 + 2 * 200*64*3 = 122,956,800; rest: 69,177,600, twice.
  CHECK(r.flops.to_double() == 122956800.0 + 2 * 69177600.0);
  // Q, K, V, dO read and dQ, dK, dV written: 3*153,600 + 4*64,000 + 153,600 = 716,800 elems.
  CHECK(r.bytes->to_double() == 1433600.0);
  CHECK(perf::find_model("flash_attn::_flash_attn_varlen_backward")->category == "SDPA_bwd");
}

TEST_CASE("AITER MHA and FMHA v3 entry points", "[perf_model][attention]") {
  const char* bnhd = "[[2,128,8,64],[2,128,8,64],[2,128,8,64]]";
  // mha_fwd (q, k, v, dropout, scale, causal): causal halves 2 * 2*8 * 2*128*128*64.
  const auto fwd = evaluate_forward(
      "aiter::mha_fwd", with_scalars(op_args(bnhd, "[]"), R"(["","","","0.0","0.125","True"])"));
  REQUIRE(fwd.ok());
  CHECK(fwd.flops.to_double() == 33554432.0);
  CHECK(fwd.bytes->to_double() == 4 * 131072.0 * 2);
  CHECK(fwd.compute_spec.empty());  // the AITER ops record no dtype parameter
  CHECK(model_param(fwd, "causal") == "True");

  // mha_bwd (dout, q, k, v, out, lse, dropout, scale, causal) with GQA 8:2 and N_KV = 256.
  const auto bwd = evaluate_forward(
      "aiter::mha_bwd",
      with_scalars(op_args("[[2,128,8,64],[2,128,8,64],[2,256,2,64],[2,256,2,64]]", "[]"),
                   R"(["","","","","","","0.0","0.125","False"])"));
  REQUIRE(bwd.ok());
  // 5 * 2*8 * 2*128*256*64 + 2 * (2*256*64 * 3) = 335,544,320 + 196,608.
  CHECK(bwd.flops.to_double() == 335740928.0);
  // Q/dO/dQ 3 * 131,072 + K/V/dK/dV 4 * 65,536 = 655,360 elements at 2 bytes.
  CHECK(bwd.bytes->to_double() == 1310720.0);

  // wrapper_fmha_v3_fwd: q at [1], dropout [4], causal [6].
  const auto v3 =
      evaluate_forward("aiter::wrapper_fmha_v3_fwd",
                       with_scalars(op_args("[[1],[2,128,8,64],[2,128,8,64],[2,128,8,64]]", "[]"),
                                    R"(["","","","","0.0","0.125","False"])"));
  REQUIRE(v3.ok());
  CHECK(v3.flops.to_double() == 67108864.0);

  // aiter::_flash_attn_backward: q at [0], dropout [10], causal [12] (equal lengths, causal).
  const auto fa_bwd = evaluate_forward(
      "aiter::_flash_attn_backward",
      with_scalars(op_args(bnhd, "[]"), R"(["","","","","","","","","","","0.0","0.125","true"])"));
  REQUIRE(fa_bwd.ok());
  // 5 * 2*8 * 2*128*128*64 / 2 (no GQA).
  CHECK(fa_bwd.flops.to_double() == 5 * 33554432.0 / 2);
  CHECK(fa_bwd.bytes->to_double() == 7 * 131072.0 * 2);
}

TEST_CASE("flash-attn v3 forward and v2 backward", "[perf_model][attention]") {
  std::string concrete = "[";
  for (int i = 0; i < 24; ++i) concrete += "\"\",";
  concrete += "\"false\"]";
  const auto v3 = evaluate_forward(
      "flash_attn_3::fwd",
      with_scalars(op_args("[[2,128,8,64],[2,128,8,64],[2,128,8,64]]", "[]"), concrete.c_str()));
  REQUIRE(v3.ok());
  CHECK(v3.flops.to_double() == 67108864.0);
  CHECK(model_param(v3, "dropout") == "0.0");

  // _flash_attn_backward(dout, q, k, v, …) without Concrete Inputs: causal by default; fp32
  // operands make 4-byte elements.
  perf::OpArgs args = op_args("[[1,64,4,32],[1,64,4,32],[1,64,4,32],[1,64,4,32]]",
                              R"(["float","float","float","float"])");
  args.input_strides = parse_json_text(
      "[[8192,128,32,1],[8192,128,32,1],[8192,128,32,1],"
      "[8192,128,32,1]]");
  const auto bwd = evaluate_forward("flash_attn::_flash_attn_backward", args);
  REQUIRE(bwd.ok());
  // 5 * 4 heads * 2*64*64*32 / 2.
  CHECK(bwd.flops.to_double() == 2621440.0);
  // 7 tensors of 64*4*32 = 8192 elements, 4 bytes each.
  CHECK(bwd.bytes->to_double() == 229376.0);
  CHECK(model_param(bwd, "causal") == "True");
  CHECK(bwd.compute_spec == "matrix_fp32");

  // An unknown dtype leaves the bytes without an element size: the model fails.
  args.input_types = parse_json_text(R"(["c10::ComplexFloat","c10::ComplexFloat"])");
  CHECK(evaluate_forward("flash_attn::_flash_attn_backward", args).error ==
        perf::ModelError::kFailed);
}

TEST_CASE("Evoformer attention folds the MSA depth into the batch", "[perf_model][attention]") {
  // Q [Batch 2, N_seq 3, N_res 16, 4 heads, 8]: 6 slices of 16x16 attention.
  const auto r = evaluate_forward(
      "EvoformerAttention",
      op_args("[[2,3,16,4,8],[2,3,16,4,8],[2,3,16,4,8],[2,3,1,1,16],[2,1,4,16,16]]",
              R"(["c10::BFloat16","c10::BFloat16"])"));
  REQUIRE(r.ok());
  CHECK(model_param(r, "B") == "6");
  // 6*4 * 2*16*16*8 * 2 = 196,608; Q, K, V, O of 6*16*4*8 = 3,072 elements at 2 bytes.
  CHECK(r.flops.to_double() == 196608.0);
  CHECK(r.bytes->to_double() == 24576.0);
  CHECK(r.compute_spec == "matrix_bf16");
  CHECK(evaluate_forward("EvoformerAttention", op_args("[[2,16,4,8]]", "[]")).error ==
        perf::ModelError::kFailed);
}
