// MoE auxiliary models on hand-checked args: TraceLens's MoeSortScatterGather
// (aiter::moe_sorting_fwd, aiter::mxfp4_moe_sort_hip) and BiasedGroupedTopk
// (aiter::biased_grouped_topk_hip) share one formula:
// * the operands are the Input Dims entries that are non-empty lists of ints, each paired with
//   its Input type entry (None past the end of the type list); param "operands" lists them;
// * flops = the element count of the largest operand (not a sum): one op per element;
// * bytes = Σ numel × name2bpe(dtype) over the operands, skipping unknown dtypes; a None
//   dtype makes name2bpe fail (it lower-cases the name), so the whole op fails; a zero total
//   becomes None (Data Moved empty);
// * the Compute Spec is vector + the precision of the largest operand's dtype (first on ties);
// * they differ only on missing Input Dims: the sort model defaults to no operands (flops 0,
//   bytes None), the top-k model raises KeyError.
#include <catch2/catch.hpp>

#include <string>

#include "json_text.hpp"
#include "loupe/core/prepare/perf_model.hpp"
#include "prepare_test_support.hpp"

namespace perf = loupe::core::prepare::perf;
using loupe::core::prepare::parse_json_text;

namespace {

perf::OpArgs make_args(const char* dims, const char* types) {
  perf::OpArgs args;
  args.input_dims = parse_json_text(dims);
  args.input_types = parse_json_text(types);
  return args;
}

}  // namespace

TEST_CASE("moe_sorting_fwd: utc_test01 trace1's synthetic op", "[perf_model][moe_aux]") {
  const auto r = perf::evaluate(
      "aiter::moe_sorting_fwd",
      make_args("[[4096, 8192], [8, 8192, 22016]]", R"(["c10::bfloat16","c10::bfloat16"])"));
  REQUIRE(r.ok());
  CHECK(perf::params_repr(r.params) ==
        "{'operands': [((4096, 8192), 'c10::bfloat16'), ((8, 8192, 22016), 'c10::bfloat16')]}");
  // max(4096·8192, 8·8192·22016) = 1442840576, an int.
  CHECK(r.flops.is_int);
  CHECK(r.flops.to_double() == 1442840576.0);
  // (33554432 + 1442840576) × 2 bytes (dtype lookup is case-insensitive).
  CHECK(r.bytes->to_double() == 2952790016.0);
  CHECK(r.compute_spec == "vector_bf16");
  const perf::Arch arch = loupe::test::mi300x_arch();
  const auto m = perf::compute_metrics(r, 120.0, &arch);
  CHECK(m.gflops == 1.442840576);
  CHECK(*m.data_moved_mb == 2816.0);
  CHECK(m.roofline_bound == "MEMORY_BOUND");
  CHECK(*m.roofline_time_us == Approx(557.1301916981132));
}

TEST_CASE("moe_sorting_fwd: a real aiter layout", "[perf_model][moe_aux]") {
  // topk ids/weights [M, topk], sorted ids/weights [P], expert ids [blocks], count [2], and the
  // hidden states [M, hidden]; scalar args ([] dims) are not operands.
  const auto r = perf::evaluate(
      "aiter::moe_sorting_fwd",
      make_args("[[4,8],[4,8],[96],[96],[6],[2],[4,7168],[],[]]",
                R"(["int","float","int","int","int","int","c10::BFloat16","Scalar","Scalar"])"));
  REQUIRE(r.ok());
  CHECK(r.flops.to_double() == 28672.0);  // 4 × 7168
  // 32·4 + 32·4 + 96·4 + 96·4 + 6·4 + 2·4 + 28672·2
  CHECK(r.bytes->to_double() == 58400.0);
  CHECK(r.compute_spec == "vector_bf16");  // from the largest operand, not the first

  // mxfp4_moe_sort_hip is the same class.
  const auto sort = perf::evaluate(
      "aiter::mxfp4_moe_sort_hip",
      make_args("[[96,8],[4,8],[96],[2]]", R"(["unsigned char","unsigned char","int","int"])"));
  REQUIRE(sort.ok());
  CHECK(sort.flops.to_double() == 768.0);
  CHECK(sort.bytes->to_double() == 768.0 + 32 + 384 + 8);
  CHECK(sort.compute_spec == "vector_fp8");
}

TEST_CASE("moe_sorting_fwd: missing dtypes and dims", "[perf_model][moe_aux]") {
  // An operand past the end of Input type has dtype None: it counts no bytes (name2bpe(None) is
  // None), but it is an operand and its elements count for the flops.
  const auto short_types =
      perf::evaluate("aiter::moe_sorting_fwd", make_args("[[4,8],[],[16]]", R"(["int","Scalar"])"));
  REQUIRE(short_types.ok());
  CHECK(perf::params_repr(short_types.params) == "{'operands': [((4, 8), 'int'), ((16,), None)]}");
  CHECK(short_types.flops.to_double() == 32.0);
  CHECK(short_types.bytes->to_double() == 128.0);  // 32 int32 elements
  // A dtype that is not a string cannot be looked up: the model fails.
  CHECK(perf::evaluate("aiter::moe_sorting_fwd", make_args("[[4,8]]", "[7]")).error ==
        perf::ModelError::kFailed);
  // Only unknown dtypes: bytes None.
  const auto unknown =
      perf::evaluate("aiter::moe_sorting_fwd", make_args("[[4,8]]", R"(["bool"])"));
  REQUIRE(unknown.ok());
  CHECK_FALSE(unknown.bytes.has_value());
  CHECK(unknown.compute_spec.empty());
  // No Input Dims at all: no operands.
  const auto none = perf::evaluate("aiter::moe_sorting_fwd", perf::OpArgs{});
  REQUIRE(none.ok());
  CHECK(perf::params_repr(none.params) == "{'operands': []}");
  CHECK(none.flops.to_double() == 0.0);
  CHECK_FALSE(none.bytes.has_value());
  // Inference-only: no backward formulas.
  CHECK(perf::evaluate("aiter::moe_sorting_fwd", make_args("[[4,8]]", R"(["int"])"),
                       perf::Direction::kBackward)
            .error == perf::ModelError::kNotImplemented);
}

TEST_CASE("biased_grouped_topk_hip: router logits, bias, top-k outputs", "[perf_model][moe_aux]") {
  const auto r = perf::evaluate(
      "aiter::biased_grouped_topk_hip",
      make_args("[[4,256],[256],[4,8],[4,8]]", R"(["float","float","float","int"])"));
  REQUIRE(r.ok());
  CHECK(r.flops.to_double() == 1024.0);  // the [4, 256] logits
  CHECK(r.bytes->to_double() == 1024.0 * 4 + 256 * 4 + 32 * 4 + 32 * 4);
  CHECK(r.compute_spec == "vector_fp32");
  const auto* info = perf::find_model("aiter::biased_grouped_topk_hip");
  REQUIRE(info != nullptr);
  CHECK(info->category == "MoE_aux");
  CHECK(info->sheet_family == "MoE_aux");
  // Unlike the sort model, missing Input Dims is a KeyError.
  CHECK(perf::evaluate("aiter::biased_grouped_topk_hip", perf::OpArgs{}).error ==
        perf::ModelError::kFailed);
}
