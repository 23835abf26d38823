// The serving engines' RoPE kernels, SGLang's KV-cache store, AITER's sampler and custom
// collectives (docs/deviations.md, "Serving-engine ops"), with flops and bytes computed by hand
// from the formulas in rope.cpp, serving_memory_ops.cpp and custom_collectives.cpp.
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

namespace {}  // namespace

TEST_CASE("RoPE kernels: 3 flops per rotated element, each read and written once",
          "[perf_model][serving][rope]") {
  // Q [2,3,8,64] and K [2,3,2,64] at [2] and [3]: 3072 + 768 elements.
  const auto two =
      evaluate_forward("aiter::rope_cached_positions_2c_fwd_impl",
                       op_args("[[2,3,8,64],[2,3,2,64],[2,3,8,64],[2,3,2,64],[100,1,1,32],"
                               "[100,1,1,32],[2,3]]",
                               R"(["c10::BFloat16","c10::BFloat16","c10::BFloat16",)"
                               R"("c10::BFloat16","float","float","long int"])"));
  REQUIRE(two.ok());
  CHECK(two.flops.to_double() == 3.0 * 3840);
  CHECK(two.bytes->to_double() == 2.0 * 3840 * 2);
  CHECK(two.compute_spec == "vector_bf16");
  CHECK(perf::find_model("aiter::rope_cached_positions_2c_fwd_impl")->category == "RoPE_fwd");

  // SGLang: 6 tokens, 8 query heads and 2 key heads of 128, of which the cos/sin cache's 64
  // are rotated: 6 * 10 * 64 elements.
  perf::OpArgs sgl = op_args("[[6],[6,1024],[6,256],[],[4096,64],[]]",
                             R"(["long int","c10::BFloat16","c10::BFloat16","Scalar","float",)"
                             R"("Scalar"])");
  sgl.concrete_inputs = parse_json_text(R"(["","","","128","",""])");
  const auto rot = evaluate_forward("sgl_kernel::rotary_embedding", sgl);
  REQUIRE(rot.ok());
  CHECK(rot.flops.to_double() == 3.0 * 3840);
  CHECK(rot.bytes->to_double() == 2.0 * 3840 * 2);
  CHECK(model_param(rot, "num_elements") == "3840");
}

TEST_CASE("MLA RoPE fused with the KV-cache write", "[perf_model][serving][rope]") {
  // T 4 tokens, 16 query heads, latent 512 + positional 64, FP8 cache.
  // flops = 3 * (4*16*64 + 4*1*64); bytes = Q read (4*16*576*2) + K read (4*576*2) +
  // Q written (4*16*576*2) + KV rows written (4*576*1).
  const auto cat =
      evaluate_forward("aiter::fused_qk_rope_cat_and_cache_mla",
                       op_args("[[4,16,512],[4,16,64],[4,1,512],[4,1,64],[1000,1,576]]",
                               R"(["c10::BFloat16","c10::BFloat16","c10::BFloat16",)"
                               R"("c10::BFloat16","c10::Float8_e4m3fnuz"])"));
  REQUIRE(cat.ok());
  CHECK(cat.flops.to_double() == 13056.0);
  CHECK(cat.bytes->to_double() == 73728.0 + 4608 + 73728 + 2304);
  CHECK(perf::find_model("aiter::fused_qk_rope_cat_and_cache_mla")->sheet_family == "FusedRoPE");

  // The concat variant: one latent KV head, Q written in FP8 (Input type[5]).
  const auto concat =
      evaluate_forward("aiter::fused_qk_rope_concat_and_cache_mla",
                       op_args("[[4,16,512],[4,16,64],[4,512],[4,64],[1000,1,576],[4,16,576]]",
                               R"(["c10::BFloat16","c10::BFloat16","c10::BFloat16",)"
                               R"("c10::BFloat16","c10::Float8_e4m3fnuz",)"
                               R"("c10::Float8_e4m3fnuz"])"));
  REQUIRE(concat.ok());
  CHECK(concat.flops.to_double() == 13056.0);
  CHECK(concat.bytes->to_double() == 73728.0 + 4608 + 36864 + 2304);
  CHECK(model_param(concat, "KH") == "1");
  CHECK(model_param(concat, "dtype_out") == "c10::Float8_e4m3fnuz");
}

TEST_CASE("SGLang's KV-cache store and AITER's sampler are memory moves", "[perf_model][serving]") {
  const auto store = evaluate_forward(
      "sglang::store_cache", op_args("[[64,5120],[64,5120],[168724,5120],[168724,5120],[64],[],[]]",
                                     R"(["c10::BFloat16","c10::BFloat16","c10::BFloat16",)"
                                     R"("c10::BFloat16","long int","",""])"));
  REQUIRE(store.ok());
  CHECK(store.flops.to_double() == 0.0);
  CHECK(store.bytes->to_double() == 4.0 * 64 * 5120 * 2);
  CHECK(store.compute_spec == "vector_bf16");
  CHECK(perf::find_model("sglang::store_cache")->category == "InferenceAttention");

  // 8 rows over a vocabulary of 151936: bf16 logits and fp32 noise read, int32 ids written.
  const auto sample = evaluate_forward(
      "aiter::mixed_sample_outer_exponential",
      op_args("[[8],[8,151936],[8,151936]]", R"(["int","c10::BFloat16","float"])"));
  REQUIRE(sample.ok());
  CHECK(sample.flops.to_double() == 2.0 * 8 * 151936);
  CHECK(sample.bytes->to_double() == 8.0 * 151936 * 2 + 8.0 * 151936 * 4 + 8 * 4);
  CHECK(sample.compute_spec == "vector_bf16");
}

TEST_CASE("custom collectives: one GPU's HBM traffic, no compute spec",
          "[perf_model][serving][collective]") {
  // All-reduce of [4, 7168] bf16: read the input, write the output.
  perf::OpArgs ar = op_args("[[],[4,7168],[4,7168],[],[]]",
                            R"(["Scalar","c10::BFloat16","c10::BFloat16","Scalar","Scalar"])");
  ar.input_strides = parse_json_text("[[],[7168,1],[7168,1],[],[]]");
  for (const char* name : {"_C_custom_ar::all_reduce", "_C_custom_ar::qr_all_reduce",
                           "sgl_kernel::all_reduce_reg", "sgl_kernel::qr_all_reduce"}) {
    INFO(name);
    const auto r = evaluate_forward(name, ar);
    REQUIRE(r.ok());
    CHECK(r.flops.to_double() == 0.0);
    CHECK(r.bytes->to_double() == 2.0 * 28672 * 2);
    CHECK(r.compute_spec.empty());
    CHECK(perf::find_model(name)->category == "CustomCollective");
  }
  // Reduce-scatter reads 8 rows and writes its 4-row shard.
  perf::OpArgs rs =
      op_args("[[],[8,7168],[4,7168]]", R"(["Scalar","c10::BFloat16","c10::BFloat16"])");
  rs.input_strides = parse_json_text("[[],[7168,1],[7168,1]]");
  CHECK(evaluate_forward("aiter::reduce_scatter", rs).bytes->to_double() == (57344.0 + 28672) * 2);
  // SGLang's registered all-gather: (out [256, N], shard [32, N], handle).
  const auto ag = evaluate_forward(
      "sglang::reg_all_gather_into_tensor",
      op_args("[[256,16160],[32,16160],[]]", R"(["c10::BFloat16","c10::BFloat16","Scalar"])"));
  REQUIRE(ag.ok());
  CHECK(ag.bytes->to_double() == (32.0 + 256) * 16160 * 2);
  CHECK(model_param(ag, "out_shape") == "(256, 16160)");

  // All-reduce + residual add + RMSNorm over [4, 7168]: n + 4 * (2 * 7168 + 2) + 2n flops;
  // input, residual and weight read, new residual and output written.
  perf::OpArgs fused = op_args("[[1],[],[4,7168],[4,7168],[4,7168],[4,7168],[7168],[],[],[]]",
                               R"(["long int","","c10::BFloat16","c10::BFloat16","c10::BFloat16",)"
                               R"("c10::BFloat16","c10::BFloat16","Scalar","",""])");
  fused.input_strides =
      parse_json_text("[[1],[],[7168,1],[7168,1],[7168,1],[7168,1],[1],[],[],[]]");
  const auto f = evaluate_forward("aiter::fused_allreduce_rmsnorm", fused);
  REQUIRE(f.ok());
  CHECK(f.flops.to_double() == 28672.0 + 4 * 14338 + 2 * 28672);
  CHECK(f.bytes->to_double() == 2.0 * 28672 * 2 + 7168 * 2 + 2.0 * 28672 * 2);
  CHECK(model_param(f, "num_channels") == "7168");
  // The Python op: input [0], weight [2].
  perf::OpArgs py = op_args("[[4,7168],[4,7168],[7168],[],[],[],[]]",
                            R"(["c10::BFloat16","c10::BFloat16","c10::BFloat16","Scalar",)"
                            R"("","Scalar","Scalar"])");
  py.input_strides = parse_json_text("[[7168,1],[7168,1],[1],[],[],[],[]]");
  CHECK(evaluate_forward("aiter::fused_allreduce_rmsnorm_", py).flops.to_double() ==
        f.flops.to_double());
}
