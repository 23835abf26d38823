// Backward ops whose perf model takes its parameters from the forward op of the same autograd
// sequence number (ConvBias_Backward / ConvBiasReLU_Backward): the link on a small trace and the
// backward formulas on the forward's parameters, with flops and bytes computed by hand.
#include <catch2/catch.hpp>

#include <string>
#include <string_view>

#include "json_text.hpp"
#include "loupe/core/prepare/perf_model.hpp"
#include "loupe/core/prepare/trace_arg_cache.hpp"
#include "loupe/core/prepare/trace_op_args.hpp"
#include "loupe/core/trace/json_reader.hpp"
#include "prepare_test_support.hpp"

namespace lt = loupe::core::trace;
namespace lp = loupe::core::prepare;
namespace perf = loupe::core::prepare::perf;
using loupe::test::model_param;
using loupe::test::op_args;

namespace {

// input [2, 16, 8, 8], weight [32, 16, 3, 3], bias [32], stride 1, padding 1: y [2, 32, 8, 8].
constexpr std::string_view kConvArgs =
    R"("Input Dims":[[2,16,8,8],[32,16,3,3],[32],[],[]],)"
    R"("Input type":["c10::BFloat16","c10::BFloat16","c10::BFloat16","Scalar","Scalar"],)"
    R"("Concrete Inputs":["","","","1","1"])";

std::string op(std::string_view name, int ts, int tid, std::string_view args) {
  return std::string(R"({"ph":"X","cat":"cpu_op","pid":1,"tid":)") + std::to_string(tid) +
         R"(,"ts":)" + std::to_string(ts) + R"(,"dur":5,"name":")" + std::string(name) +
         R"(","args":{)" + std::string(args) + "}}";
}

std::string seq(int n) { return R"("Sequence number":)" + std::to_string(n); }

lt::Uid uid_at(const lt::TraceModel& model, std::string_view name, int ts) {
  for (lt::Uid u = 0; u < static_cast<lt::Uid>(model.event_count()); ++u) {
    if (model.name(u) == name && model.event(u).ts_ns == ts * 1000LL) return u;
  }
  FAIL("no " << name << " at " << ts);
  return lt::kNoUid;
}

}  // namespace

TEST_CASE("ConvBias backward takes the forward op's parameters", "[perf_model][training]") {
  perf::OpArgs forward = op_args("[[2,16,8,8],[32,16,3,3],[32]]",
                                 R"(["c10::BFloat16","c10::BFloat16","c10::BFloat16"])");
  forward.concrete_inputs = lp::parse_json_text(R"(["","","","1","1"])");
  // The backward op's own args (grad_output) are not read.
  perf::OpArgs backward = op_args("[[2,32,8,8]]", R"(["c10::BFloat16"])");
  backward.forward = std::make_shared<perf::OpArgs>(forward);
  for (const char* name : {"ConvBias_Backward", "ConvBiasReLU_Backward"}) {
    for (const auto direction : {perf::Direction::kForward, perf::Direction::kBackward}) {
      const auto r = perf::evaluate(name, backward, direction);
      REQUIRE(r.ok());
      // grad input: 4096 outputs * 2 * 16*3*3 = 1179648; grad weight: 4608 weights * 2 * 2*8*8
      // = 1179648; grad bias: 4096.
      CHECK(r.flops.to_double() == 2363392.0);
      // (y 4096 + w 4608 + x 2048) * 2 bytes, twice, plus the bias gradient's 4096 + 32
      // elements (counted as elements, like TraceLens).
      CHECK(r.bytes->to_double() == 47136.0);
      CHECK(r.compute_spec == "matrix_bf16");
      CHECK(model_param(r, "input_shape") == "(2, 16, 8, 8)");
      CHECK(model_param(r, "padding") == "(1, 1)");
    }
  }
  // Without its forward op the class has no numbers: the row keeps no metrics.
  backward.forward = nullptr;
  const auto alone = perf::evaluate("ConvBias_Backward", backward);
  CHECK(alone.error == perf::ModelError::kFailed);
  CHECK_FALSE(perf::forward_op_name("aten::convolution_backward"));
  CHECK(perf::forward_op_name("ConvBiasReLU_Backward") == "ConvBiasReLU_");
}

TEST_CASE(
    "a backward op is linked to the forward op of its sequence number that started last before it",
    "[perf_model][training]") {
  const std::string events[] = {
      op("ConvBias_", 10, 1, std::string(kConvArgs) + "," + seq(7)),
      op("ConvBiasReLU_", 20, 1, std::string(kConvArgs) + "," + seq(8)),
      op("ConvBias_Backward", 100, 2, seq(7)),
      op("ConvBias_Backward", 110, 2, seq(8)),  // only a ConvBiasReLU_ has 8
      op("ConvBiasReLU_Backward", 120, 2, seq(8)),
      op("ConvBias_Backward", 130, 2, R"("Input Dims":[[2,32,8,8]])"),  // no sequence number
      op("ConvBias_Backward", 140, 2, seq(9)),                          // its forward comes later
      op("ConvBias_", 150, 1, std::string(kConvArgs) + "," + seq(9)),
      // Written after its backward op but started before it: the trace's order is not time order.
      op("ConvBias_Backward", 210, 2, seq(10)),
      op("ConvBias_", 200, 1, std::string(kConvArgs) + "," + seq(10)),
  };
  std::string text = R"({"traceEvents":[)";
  for (const auto& e : events) text += e + (&e == &events[9] ? "" : ",");
  text += "]}";
  auto loaded = lt::load_trace_bytes(text);
  REQUIRE_FALSE(loaded.error.has_value());
  const lt::TraceModel& model = loaded.model;
  lp::TraceArgCache cache(model);
  const auto linked = [&](std::string_view name, int ts) {
    return lp::trace_op_args(cache, nullptr, uid_at(model, name, ts), {}).forward;
  };
  const auto bias = linked("ConvBias_Backward", 100);
  REQUIRE(bias != nullptr);
  CHECK(bias->input_dims.size() == 5);
  const auto result = perf::evaluate(
      "ConvBias_Backward",
      lp::trace_op_args(cache, nullptr, uid_at(model, "ConvBias_Backward", 100), {}));
  REQUIRE(result.ok());
  CHECK(result.flops.to_double() == 2363392.0);
  CHECK(linked("ConvBias_Backward", 110) == nullptr);
  CHECK(linked("ConvBiasReLU_Backward", 120) != nullptr);
  CHECK(linked("ConvBias_Backward", 130) == nullptr);
  CHECK(linked("ConvBias_Backward", 140) == nullptr);
  CHECK(linked("ConvBias_Backward", 210) != nullptr);
  // Ops of no forward-linked class carry no forward args.
  CHECK(linked("ConvBias_", 150) == nullptr);
}
