// The serving engines' attention variants and activation quantizers (docs/deviations.md,
// "Serving-engine ops"): each class on its own argument layout, with flops and bytes computed
// by hand from the formulas in inference_attention.cpp and group_quant.cpp.
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

// One prefill chunk of 4 new tokens over 6 (sq*sq 16, sq*sk 24) and one decode token over a
// context of 10.
constexpr const char* kStep =
    "execute_5_context_1(sq4sk6sqsq16sqsk24)_generation_1(sq1sk10sqsq1sqsk10)";
constexpr const char* kPrefillOnly =
    "execute_4_context_1(sq4sk6sqsq16sqsk24)_generation_0(sq0sk0sqsq0sqsk0)";

double flops(const perf::ModelResult& r) { return r.flops.to_double(); }
double bytes(const perf::ModelResult& r) { return r.bytes ? r.bytes->to_double() : -1.0; }

}  // namespace

TEST_CASE("inference attention variants: varlen, batch prefill and MLA read the step's counts",
          "[perf_model][serving][attention]") {
  // Q [5, 8, 64], K/V [5, 2, 64]: flops = 8 * (2*24 - 16) * 128 + 8 * 2*10 * 128;
  // bytes = 5 tokens * (8*64*2 + 2*64*2) * 2 B + 11 cached tokens * 2*64*2 * 2 B.
  const auto varlen = op_args("[[5,8,64],[5,2,64],[5,2,64]]",
                              R"(["c10::BFloat16","c10::BFloat16","c10::BFloat16"])", kStep);
  for (const char* name : {"aiter::mha_varlen_fwd", "pseudo_mla_decode_fwd"}) {
    INFO(name);
    const auto r = evaluate_forward(name, varlen);
    REQUIRE(r.ok());
    CHECK(flops(r) == 53248.0);
    CHECK(bytes(r) == 18432.0);
    CHECK(r.compute_spec == "matrix_bf16");
    CHECK(perf::find_model(name)->category == "InferenceAttention");
    CHECK(perf::find_model(name)->sheet_family == "InferenceAttention");
  }

  // The FMHA v3 varlen, batch-prefill and MLA prefill ops take d_v from V = [2] (128 here):
  // flops = 8 * 32 * 192 + 8 * 20 * 192; bytes = 5 * (512 + 1024 + 128 + 256) * 2 +
  // 11 * (128 + 256) * 2.
  const auto wide_v = op_args("[[5,8,64],[5,2,64],[5,2,128]]",
                              R"(["c10::BFloat16","c10::BFloat16","c10::BFloat16"])", kStep);
  for (const char* name :
       {"aiter::fmha_v3_varlen_fwd", "aiter::mha_batch_prefill", "pseudo_mla_prefill_fwd"}) {
    INFO(name);
    const auto r = evaluate_forward(name, wide_v);
    REQUIRE(r.ok());
    CHECK(flops(r) == 79872.0);
    CHECK(bytes(r) == 27648.0);
    CHECK(model_param(r, "d_h_v") == "128");
  }
  // Cached K/V in FP8 are read at one byte: 12800 + 2816.
  const auto fp8_kv =
      op_args("[[5,8,64],[5,2,64],[5,2,64]]",
              R"(["c10::BFloat16","c10::Float8_e4m3fn","c10::Float8_e4m3fn"])", kStep);
  const auto paged_prefill = evaluate_forward("aiter::mha_batch_prefill", fp8_kv);
  REQUIRE(paged_prefill.ok());
  CHECK(bytes(paged_prefill) == 15616.0);
  CHECK(model_param(paged_prefill, "dtype_KV") == "c10::Float8_e4m3fn");

  // Without a detailed step label there is nothing to count: the row keeps no metrics.
  const auto unlabeled = op_args("[[5,8,64],[5,2,64],[5,2,64]]",
                                 R"(["c10::BFloat16","c10::BFloat16","c10::BFloat16"])", "NA");
  CHECK(evaluate_forward("aiter::mha_varlen_fwd", unlabeled).error == perf::ModelError::kFailed);
}

TEST_CASE("SGLang's ragged paged attention reads Q and the paged caches from [2], [3], [4]",
          "[perf_model][serving][attention]") {
  const auto args =
      op_args("[[5],[6],[5,8,64],[100,16,2,64],[100,16,2,128]]",
              R"(["int","int","c10::BFloat16","c10::BFloat16","c10::BFloat16"])", kStep);
  const auto r = evaluate_forward("sglang_profiler::attention_paged_attention_ragged", args);
  REQUIRE(r.ok());
  CHECK(flops(r) == 79872.0);
  CHECK(bytes(r) == 27648.0);
  CHECK(model_param(r, "N_KV") == "16");  // c_sk + g_sk
  CHECK(model_param(r, "H_KV") == "2");
  CHECK(model_param(r, "dtype_KV") == "<absent>");  // the class names no KV dtype
}

TEST_CASE("AITER's Gluon paged decode: decode only, FP8 cache, sliding window",
          "[perf_model][serving][attention]") {
  perf::OpArgs args = op_args(
      "[[3,8,64],[3,8,64],[100,2,16,64],[100,2,16,64]]",
      R"(["c10::BFloat16","c10::BFloat16","c10::Float8_e4m3fn","c10::Float8_e4m3fn"])", kStep);
  // The context counts are zeroed: flops = 8 * 2*10 * 128; bytes = 1 * 1280 * 2 (Q dtype) +
  // 9 * 256 * 1 (FP8 cache).
  const auto full = evaluate_forward("aiter::pa_decode_gluon", args);
  REQUIRE(full.ok());
  CHECK(flops(full) == 20480.0);
  CHECK(bytes(full) == 4864.0);
  CHECK(model_param(full, "c_sqsk") == "0");
  CHECK(model_param(full, "sliding_window") == "0");

  // A window of 4 caps the decode token's span: g_sk = g_sqsk = min(10, 1 * 4).
  std::string concrete = "[";
  for (int i = 0; i < 20; ++i) concrete += i == 19 ? "\"4\"]" : "\"\",";
  args.concrete_inputs = parse_json_text(concrete.c_str());
  const auto windowed = evaluate_forward("aiter::pa_decode_gluon", args);
  REQUIRE(windowed.ok());
  CHECK(flops(windowed) == 8192.0);
  CHECK(bytes(windowed) == 2560.0 + 3 * 256);
  CHECK(model_param(windowed, "sliding_window") == "4");

  // A step without decode tokens is not this kernel's work: not modeled.
  args.step_annotation = kPrefillOnly;
  CHECK(evaluate_forward("aiter::pa_decode_gluon", args).error ==
        perf::ModelError::kNotImplemented);
}

TEST_CASE("sparse MLA: TileLang decode with d_v 512, DeepSeek-V4 sparse prefill from pairs",
          "[perf_model][serving][attention]") {
  const auto tilelang = evaluate_forward(
      "sglang_profiler::tilelang_kernel_tilelang_sparse_fwd",
      op_args("[[5,8,64],[5,1,64]]", R"(["c10::BFloat16","c10::BFloat16"])", kStep));
  REQUIRE(tilelang.ok());
  // flops = 8 * 32 * 576 + 8 * 20 * 576; bytes = 5 * (512 + 4096 + 64 + 512) * 2 +
  // 11 * 576 * 2.
  CHECK(flops(tilelang) == 239616.0);
  CHECK(bytes(tilelang) == 64512.0);

  // 100 selected history slots + 20 local-window slots, 16 heads of 512, FP8 latent cache:
  // flops = 120 * 16 * 2 * 1024; bytes = 2 * 4 * 16 * 512 * 2 + 120 * 512 * 1. No step label.
  const auto sparse = evaluate_forward("aiter::pa_sparse_prefill_opus_fwd",
                                       op_args("[[4,16,512],[1000,1,512],[100],[5],[5],[20]]",
                                               R"(["c10::BFloat16","c10::Float8_e4m3fn"])"));
  REQUIRE(sparse.ok());
  CHECK(flops(sparse) == 3932160.0);
  CHECK(bytes(sparse) == 192512.0);
  CHECK(model_param(sparse, "prefill_pairs") == "120");
  CHECK(sparse.compute_spec == "matrix_bf16");
}

TEST_CASE("gated delta net: recurrent state per value head, no KV cache",
          "[perf_model][serving][attention]") {
  // H_V = 4 value heads of 32, H_K = 2 key heads of 16: mixed_qkv width 2*2*16 + 4*32 = 192.
  const auto args =
      op_args("[[5,192],[5,4],[5,4],[5,4,32],[]]",
              R"(["c10::BFloat16","c10::BFloat16","float","c10::BFloat16",""])", kStep);
  for (const char* name :
       {"vllm::gdn_attention_core", "aiter::linear_attention_with_output_base"}) {
    INFO(name);
    const auto r = evaluate_forward(name, args);
    REQUIRE(r.ok());
    CHECK(flops(r) == 5.0 * 4 * 7 * 32 * 16);        // 5 tokens
    CHECK(bytes(r) == 5.0 * 4 * (16 + 64 + 2) * 2);  // 2 bytes per element
    CHECK(model_param(r, "d_h_qk") == "16");
    CHECK(model_param(r, "H_K") == "2");
    // Without a step label with token counts the class raises NotImplementedError (the row is
    // dropped), not a failure that would keep it without metrics.
    perf::OpArgs unlabeled = args;
    unlabeled.step_annotation.reset();
    CHECK(evaluate_forward(name, unlabeled).error == perf::ModelError::kNotImplemented);
    unlabeled.step_annotation = "NA";
    CHECK(evaluate_forward(name, unlabeled).error == perf::ModelError::kNotImplemented);
  }
}

TEST_CASE("activation quantizers: AITER FP8, vLLM's Triton group quant, MXFP4",
          "[perf_model][serving][quant]") {
  perf::OpArgs per_token =
      op_args("[[4,64],[4,64],[4,1]]", R"(["c10::Float8_e4m3fnuz","c10::BFloat16","float"])");
  per_token.input_strides = parse_json_text("[[64,1],[64,1],[1,1]]");
  for (const char* name :
       {"aiter::dynamic_per_token_scaled_quant", "aiter::dynamic_per_group_scaled_quant",
        "aiter::dynamic_per_tensor_quant"}) {
    INFO(name);
    const auto r = evaluate_forward(name, per_token);
    REQUIRE(r.ok());
    CHECK(flops(r) == 256 * 2.59375);
    CHECK(bytes(r) == 256 * 1 + 256 * 2 + 4 * 4);
    CHECK(r.compute_spec == "vector_bf16");
    CHECK(perf::find_model(name)->category == "GroupQuant");
    CHECK(perf::find_model(name)->sheet_family == "BinaryElementwise");
  }

  // x [4, 300] in groups of 128: 3 groups per row.
  perf::OpArgs triton = op_args("[[4,300],[]]", R"(["c10::BFloat16","Scalar"])");
  triton.concrete_inputs = parse_json_text(R"(["","128"])");
  const auto t = evaluate_forward("vllm::triton_per_token_group_quant_fp8", triton);
  REQUIRE(t.ok());
  CHECK(flops(t) == 6.0 * 1200);
  CHECK(bytes(t) == 1200 * 2 + 1200 + 4 * 3 * 4);
  CHECK(model_param(t, "num_groups") == "3");
  triton.concrete_inputs = parse_json_text(R"([""," 64 "])");
  CHECK(bytes(evaluate_forward("vllm::triton_per_token_group_quant_fp8", triton)) ==
        3600 + 4 * 5 * 4);
  triton.concrete_inputs = parse_json_text(R"(["","None"])");  // the default, 128
  CHECK(model_param(evaluate_forward("vllm::triton_per_token_group_quant_fp8", triton),
                    "group_size") == "128");

  // MXFP4: 1280 bf16 elements read, half a byte each written, one scale byte per 32.
  perf::OpArgs flat = op_args("[[4,320]]", R"(["c10::BFloat16"])");
  flat.input_strides = parse_json_text("[[320,1]]");
  const auto mx =
      evaluate_forward("sglang_profiler::fused_mxfp4_quant_fused_flatten_mxfp4_quant", flat);
  REQUIRE(mx.ok());
  CHECK(flops(mx) == 2560.0);
  CHECK(bytes(mx) == 2560.0 + 640.0 + 40.0);
  CHECK_FALSE(mx.bytes->is_int);  // Python's float (half a byte per element)
  CHECK(mx.compute_spec == "vector_bf16");
  CHECK(perf::find_model("sglang_profiler::quant_dynamic_mxfp4_quant")->sheet_family ==
        "GroupQuant");
  CHECK(bytes(evaluate_forward("sglang_profiler::quant_dynamic_mxfp4_quant", flat)) == 3240.0);

  // The same activation at the position each kernel gives it.
  const auto at1 = op_args("[[4,160],[4,320],[4,10]]",
                           R"(["c10::Float4_e2m1fn_x2","c10::BFloat16","c10::Float8_e8m0fnu"])");
  CHECK(bytes(evaluate_forward("aiter::dynamic_per_group_scaled_quant_fp4", at1)) == 3240.0);
  perf::OpArgs at2 =
      op_args("[[4,160],[64,10],[4,320],[64],[1]]",
              R"(["c10::Float4_e2m1fn_x2","c10::Float8_e8m0fnu","c10::BFloat16","int","int"])");
  CHECK(bytes(evaluate_forward("aiter::fused_dynamic_mxfp4_quant_moe_sort_hip", at2)) == 3240.0);
  at2.input_strides = parse_json_text("[[160,1],[10,1],[320,1],[1],[1]]");
  const auto sorted = evaluate_forward("aiter::fused_dynamic_mx_quant_moe_sort_hip", at2);
  REQUIRE(sorted.ok());
  CHECK(flops(sorted) == 2560.0);
  CHECK(model_param(sorted, "stride_input") == "(320, 1)");
  // A missing input is a failed model, never a number.
  CHECK_FALSE(
      evaluate_forward("aiter::dynamic_per_group_scaled_quant_fp4", op_args("[[4,160]]", "[\"\"]"))
          .ok());
}

TEST_CASE("DeepSeek-V4 paged decode pseudo ops: per-mode KV span", "[perf_model][serving]") {
  // 4 decode queries over 4096 context tokens (mean 1024); DeepSeek-V4-Flash defaults: 64
  // heads, d_h 512, window 128, top-512 indexer; one latent KV head, bf16.
  const char* step =
      "step[DECODE bs=4 c=0 g=4 c_sq=0 c_sk=0 c_sqsq=0 c_sqsk=0 g_sq=4 g_sk=4096 g_sqsq=4 "
      "g_sqsk=4096]";
  const auto args = op_args("[[4,64,576]]", R"(["c10::BFloat16"])", step);
  // Q and output (2 * 64 * 512) plus the current token's latent K and V (2 * 512) per query:
  // 66560 elements * 4 queries * 2 bytes.
  const double q_bytes = 66560.0 * 4 * 2;
  // SWA: the window caps each query at 128 tokens: g_sk = g_sqsk = min(4096, 4 * 128) = 512.
  const auto swa = evaluate_forward("pseudo_v4_paged_decode_swa", args);
  REQUIRE(swa.ok());
  CHECK(model_param(swa, "sliding_window") == "128");
  CHECK(flops(swa) == 64.0 * 2 * 512 * 512 * 2);
  CHECK(bytes(swa) == q_bytes + (512 - 4) * 1024.0 * 2);
  CHECK(swa.compute_spec == "matrix_bf16");
  // CSA: window + min(ceil(1024 / 4), 512) = 384 -> span 1536.
  const auto csa = evaluate_forward("pseudo_v4_paged_decode_csa", args);
  REQUIRE(csa.ok());
  CHECK(model_param(csa, "sliding_window") == "384");
  CHECK(flops(csa) == 64.0 * 2 * 1536 * 512 * 2);
  CHECK(bytes(csa) == q_bytes + (1536 - 4) * 1024.0 * 2);
  // HCA: window + ceil(1024 / 128) = 136 -> span 544.
  const auto hca = evaluate_forward("pseudo_v4_paged_decode_hca", args);
  REQUIRE(hca.ok());
  CHECK(model_param(hca, "sliding_window") == "136");
  CHECK(flops(hca) == 64.0 * 2 * 544 * 512 * 2);

  // The pseudo op's own args name the variant and the tensor-parallel degree: -Pro's 128 heads
  // over 8 ranks.
  perf::OpArgs pro = args;
  pro.pseudo_args = parse_json_text(R"({"v4_model_name": "DeepSeek-V4-Pro", "v4_tp": 8})");
  const auto pro_swa = evaluate_forward("pseudo_v4_paged_decode_swa", pro);
  REQUIRE(pro_swa.ok());
  CHECK(model_param(pro_swa, "H_Q") == "16");
  CHECK(flops(pro_swa) == 16.0 * 2 * 512 * 512 * 2);

  // Without the step's token counts there is nothing to cost.
  CHECK(evaluate_forward("pseudo_v4_paged_decode_swa", op_args("[[4,64,576]]", "[]")).error ==
        perf::ModelError::kFailed);
}
