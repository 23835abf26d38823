// The inductor model (TritonCompiledPerfModel) for `triton_poi_/triton_red_/triton_per_*` ops,
// on hand-checked args. What TraceLens does, in short:
// * launch sizes come from the integer Concrete Inputs (empty strings dropped): a reduction
//   kernel (red/per) takes the last two as xnumel, rnumel; a pointwise kernel takes the last
//   one as xnumel and rnumel = 1;
// * flops = (Σ per-element charge of the fused ops) × xnumel × rnumel, as a float; the fused ops
//   are read off the kernel name, and only a short table of ops is charged (add/sub/mul/div/
//   relu/mean/sum/abs/neg/comparisons 1, pow/sqrt/rsqrt/var/reciprocal 2, exp/log/sigmoid/tanh/
//   silu 4, gelu 8); every other op, bitwise ops and ge included, costs 0;
// * bytes = Σ over the pointer args (Input type not "Scalar", Input Dims non-empty) of
//   numel × element size, plus, for a pointwise kernel, xnumel more elements of the first
//   pointer's size; sizes only exist for exact c10 names (c10::BFloat16, c10::Float, …), so
//   Kineto's plain "float", "int", "long int" and "bool" tensors count 0 bytes;
// * the Compute Spec is "vector_" + the first sized pointer's type name after "::",
//   lower-cased ("vector_bfloat16"), not the usual short precision; no sized pointer = none;
// * without those args the model would look for the compiling machine's inductor cache, so
//   it is "not implemented" (and can_model says no).
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "json_text.hpp"
#include "loupe/core/prepare/perf_model.hpp"
#include "prepare_test_support.hpp"

namespace perf = loupe::core::prepare::perf;
using loupe::core::prepare::parse_json_text;

namespace {

perf::OpArgs make_args(const char* dims, const char* types, const char* concrete) {
  perf::OpArgs args;
  args.input_dims = parse_json_text(dims);
  args.input_types = parse_json_text(types);
  args.concrete_inputs = parse_json_text(concrete);
  return args;
}

using loupe::test::model_param;

}  // namespace

TEST_CASE("inductor pointwise op: b200_eager's masked embedding index", "[perf_model][triton]") {
  const char* name = "triton_poi_fused_add_bitwise_and_bitwise_not_bitwise_or_ge_lt_mul_sub_0";
  const auto args = make_args(
      "[[888],[888],[888],[],[],[],[],[],[]]",
      R"(["int","long int","bool","Scalar","Scalar","Scalar","Scalar","Scalar","Scalar"])",
      R"(["","","","0","25136","201088","201088","0","888"])");
  REQUIRE(perf::has_model(name));
  CHECK(perf::can_model(name, args));
  CHECK(perf::op_category(name, "") == "triton");
  const auto r = perf::evaluate(name, args);
  REQUIRE(r.ok());
  // Eight fused ops; add, lt, mul and sub are charged 1 each: 4 × 888 × 1.
  CHECK(model_param(r, "fused_ops") ==
        "aten.add, aten.bitwise_and, aten.bitwise_not, aten.bitwise_or, aten.ge, aten.lt, "
        "aten.mul, aten.sub");
  CHECK(model_param(r, "xnumel") == "888");  // the last concrete int
  CHECK(model_param(r, "rnumel") == "1");
  CHECK_FALSE(r.flops.is_int);
  CHECK(r.flops.f == 3552.0);
  // int / long int / bool have no c10 size: 0 bytes, and no dtype for the Compute Spec.
  REQUIRE(r.bytes.has_value());
  CHECK(r.bytes->to_double() == 0.0);
  CHECK(r.compute_spec.empty());
  CHECK(perf::params_repr(r.params) ==
        "{'fused_ops': 'aten.add, aten.bitwise_and, aten.bitwise_not, aten.bitwise_or, aten.ge, "
        "aten.lt, aten.mul, aten.sub', 'xnumel': 888, 'rnumel': 1}");
  const auto m = perf::compute_metrics(r, 1.98388671875, nullptr);
  CHECK(m.gflops == 3.552e-06);
  CHECK(*m.data_moved_mb == 0.0);
  CHECK(std::isnan(m.flops_per_byte));
}

TEST_CASE("inductor reduction op: bf16 RMSNorm", "[perf_model][triton]") {
  const auto r = perf::evaluate(
      "triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_0",
      make_args("[[8,4096,2048],[2048],[8,4096,2048],[],[]]",
                R"(["c10::BFloat16","c10::BFloat16","c10::BFloat16","Scalar","Scalar"])",
                R"(["","","","32768","2048"])"));
  REQUIRE(r.ok());
  CHECK(model_param(r, "fused_ops") ==
        "aten._to_copy, aten.add, aten.mean, aten.mul, aten.pow, aten.rsqrt");
  CHECK(model_param(r, "xnumel") == "32768");  // the last two concrete ints of a reduction
  CHECK(model_param(r, "rnumel") == "2048");
  // (0 + 1 + 1 + 1 + 2 + 2) × 32768 × 2048
  CHECK(r.flops.to_double() == 469762048.0);
  // 2 × 67108864 × 2 + 2048 × 2; a reduction adds no output term.
  CHECK(r.bytes->to_double() == 268439552.0);
  CHECK(r.compute_spec == "vector_bfloat16");
}

TEST_CASE("inductor pointwise op: output term and fp32 tensors", "[perf_model][triton]") {
  // Pointwise: Σ numel × size over the pointers, then xnumel × the first pointer's size.
  const auto half =
      perf::evaluate("triton_poi_fused_gelu_mul_3",
                     make_args("[[64,128],[64,128],[]]", R"(["c10::Half","c10::Half","Scalar"])",
                               R"(["","","8192"])"));
  REQUIRE(half.ok());
  CHECK(half.flops.to_double() == 9.0 * 8192);  // gelu 8 + mul 1
  CHECK(half.bytes->to_double() == 2.0 * 8192 * 2 + 8192 * 2);
  CHECK(half.compute_spec == "vector_half");

  // Kineto names fp32 "float": no size, so no bytes and no dtype, while a later c10::Long
  // pointer names the spec.
  const auto fp32 =
      perf::evaluate("triton_poi_fused_exp_1",
                     make_args("[[100],[100]]", R"(["float","c10::Long"])", R"(["","","100"])"));
  REQUIRE(fp32.ok());
  CHECK(fp32.flops.to_double() == 400.0);
  CHECK(fp32.bytes->to_double() == 800.0);  // 100 × 0 + 100 × 8, then 100 × 0
  CHECK(fp32.compute_spec == "vector_long");
}

TEST_CASE("inductor kernel names: segmentation quirks", "[perf_model][triton]") {
  const auto ops = [](const char* name) {
    const auto r = perf::evaluate(name, make_args("[[4]]", R"(["c10::Float"])", R"(["4"])"));
    REQUIRE(r.ok());
    return model_param(r, "fused_ops");
  };
  // The words are segmented into known op names: an op may start with an empty word
  // ("_to_copy") or span several ("all_to_all_single"), and the longest op wins ("_add_relu",
  // not "add" after an empty word, which is no op).
  CHECK(ops("triton_poi_fused_add__to_copy_mul_1") == "aten.add, aten._to_copy, aten.mul");
  CHECK(ops("triton_poi_fused__add_relu_0") == "aten._add_relu");
  CHECK(ops("triton_poi_fused_all_to_all_single_mul_4") == "aten.all_to_all_single, aten.mul");
  CHECK(ops("triton_red_fused_native_layer_norm_native_layer_norm_backward_3") ==
        "aten.native_layer_norm, aten.native_layer_norm_backward");
  // A word that belongs to no op leaves the name without a full segmentation: no ops at all.
  CHECK(ops("triton_poi_fused_frobnicate_relu_2").empty());
  // Without "fused_<ops>_<n>" there are no fused ops, hence no flops.
  CHECK(ops("triton_per_fused_7").empty());
  const auto bare =
      perf::evaluate("triton_red_any_0", make_args("[[4]]", R"(["c10::Float"])", R"(["2","4"])"));
  REQUIRE(bare.ok());
  CHECK(bare.flops.to_double() == 0.0);
  CHECK(model_param(bare, "xnumel") == "2");
  CHECK(model_param(bare, "rnumel") == "4");
}

TEST_CASE("inductor op without trace metadata", "[perf_model][triton]") {
  const char* name = "triton_per_fused_sum_0";
  perf::OpArgs none;
  CHECK(perf::has_model(name));
  CHECK_FALSE(perf::can_model(name, none));
  CHECK(perf::evaluate(name, none).error == perf::ModelError::kNotImplemented);
  // Only empty strings among the Concrete Inputs: no launch size either.
  const auto no_sizes = make_args("[[4]]", R"(["c10::Float"])", R"([""])");
  CHECK_FALSE(perf::can_model(name, no_sizes));
  // A non-integer launch size is a failure (Python's int() raises).
  const auto bad = make_args("[[4]]", R"(["c10::Float"])", R"(["0.5"])");
  CHECK_FALSE(perf::can_model(name, bad));
  CHECK(perf::evaluate(name, bad).error == perf::ModelError::kFailed);
  // No backward formulas.
  CHECK(perf::evaluate(name, make_args("[[4]]", R"(["c10::Float"])", R"(["4"])"),
                       perf::Direction::kBackward)
            .error == perf::ModelError::kNotImplemented);
  // Other names keep their exact-name resolution; the matcher only takes the three prefixes.
  CHECK_FALSE(perf::has_model("triton_tem_fused_mm_0"));
  CHECK(perf::can_model("aten::mm", none));
}
