// The serving engines' RoPE kernels, SGLang's KV-cache store and AITER's sampler
// (docs/deviations.md, "Serving-engine ops"), with flops and bytes computed by hand from the
// formulas in rope.cpp and serving_memory_ops.cpp.
#include <catch2/catch.hpp>

#include <string>

#include "json_text.hpp"
#include "loupe/core/prepare/perf_model.hpp"
#include "prepare_test_support.hpp"

namespace perf = loupe::core::prepare::perf;
using loupe::core::prepare::parse_json_text;
using loupe::test::model_param;

namespace {

perf::OpArgs args_of(const char* dims, const char* types) {
  perf::OpArgs args;
  args.input_dims = parse_json_text(dims);
  args.input_types = parse_json_text(types);
  return args;
}

perf::ModelResult run(std::string_view name, const perf::OpArgs& args) {
  return perf::evaluate(name, args, perf::Direction::kForward);
}

}  // namespace

TEST_CASE("RoPE kernels: 3 flops per rotated element, each read and written once",
          "[perf_model][serving][rope]") {
  // Q [2,3,8,64] and K [2,3,2,64] at [2] and [3]: 3072 + 768 elements.
  const auto two = run("aiter::rope_cached_positions_2c_fwd_impl",
                       args_of("[[2,3,8,64],[2,3,2,64],[2,3,8,64],[2,3,2,64],[100,1,1,32],"
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
  perf::OpArgs sgl = args_of("[[6],[6,1024],[6,256],[],[4096,64],[]]",
                             R"(["long int","c10::BFloat16","c10::BFloat16","Scalar","float",)"
                             R"("Scalar"])");
  sgl.concrete_inputs = parse_json_text(R"(["","","","128","",""])");
  const auto rot = run("sgl_kernel::rotary_embedding", sgl);
  REQUIRE(rot.ok());
  CHECK(rot.flops.to_double() == 3.0 * 3840);
  CHECK(rot.bytes->to_double() == 2.0 * 3840 * 2);
  CHECK(model_param(rot, "num_elements") == "3840");
}

TEST_CASE("MLA RoPE fused with the KV-cache write", "[perf_model][serving][rope]") {
  // T 4 tokens, 16 query heads, latent 512 + positional 64, FP8 cache.
  // flops = 3 * (4*16*64 + 4*1*64); bytes = Q read (4*16*576*2) + K read (4*576*2) +
  // Q written (4*16*576*2) + KV rows written (4*576*1).
  const auto cat = run("aiter::fused_qk_rope_cat_and_cache_mla",
                       args_of("[[4,16,512],[4,16,64],[4,1,512],[4,1,64],[1000,1,576]]",
                               R"(["c10::BFloat16","c10::BFloat16","c10::BFloat16",)"
                               R"("c10::BFloat16","c10::Float8_e4m3fnuz"])"));
  REQUIRE(cat.ok());
  CHECK(cat.flops.to_double() == 13056.0);
  CHECK(cat.bytes->to_double() == 73728.0 + 4608 + 73728 + 2304);
  CHECK(perf::find_model("aiter::fused_qk_rope_cat_and_cache_mla")->sheet_family == "FusedRoPE");

  // The concat variant: one latent KV head, Q written in FP8 (Input type[5]).
  const auto concat = run("aiter::fused_qk_rope_concat_and_cache_mla",
                          args_of("[[4,16,512],[4,16,64],[4,512],[4,64],[1000,1,576],[4,16,576]]",
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
  const auto store = run("sglang::store_cache",
                         args_of("[[64,5120],[64,5120],[168724,5120],[168724,5120],[64],[],[]]",
                                 R"(["c10::BFloat16","c10::BFloat16","c10::BFloat16",)"
                                 R"("c10::BFloat16","long int","",""])"));
  REQUIRE(store.ok());
  CHECK(store.flops.to_double() == 0.0);
  CHECK(store.bytes->to_double() == 4.0 * 64 * 5120 * 2);
  CHECK(store.compute_spec == "vector_bf16");
  CHECK(perf::find_model("sglang::store_cache")->category == "InferenceAttention");

  // 8 rows over a vocabulary of 151936: bf16 logits and fp32 noise read, int32 ids written.
  const auto sample =
      run("aiter::mixed_sample_outer_exponential",
          args_of("[[8],[8,151936],[8,151936]]", R"(["int","c10::BFloat16","float"])"));
  REQUIRE(sample.ok());
  CHECK(sample.flops.to_double() == 2.0 * 8 * 151936);
  CHECK(sample.bytes->to_double() == 8.0 * 151936 * 2 + 8.0 * 151936 * 4 + 8 * 4);
  CHECK(sample.compute_spec == "vector_bf16");
}
