// Which ops become unified_perf_summary rows (docs/contracts/trace_model.md §3.6.1): has_model(e) includes
// the class's can_model check, so an inductor op whose trace args do not describe its kernel
// is an unmodeled leaf row rather than a modeled one.
#include <catch2/catch.hpp>

#include <string>

#include "inline_trace.hpp"
#include "loupe/core/prepare/trace_op_args.hpp"
#include "loupe/core/prepare/unified_perf_events.hpp"
#include "loupe/core/prepare/unified_perf_summary.hpp"
#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/json_reader.hpp"

namespace lp = loupe::core::prepare;
namespace lt = loupe::core::trace;

namespace {

// cpu_op `name` (with `args`) launching one kernel `<name>_kernel` of 20 µs.
std::string launch(const std::string& name, const std::string& args, int id, int ts) {
  return loupe::test::inline_trace::op_with_kernel(name, name + "_kernel", id, ts, 20, args);
}

}  // namespace

TEST_CASE("an inductor op is modeled only when its trace args describe the kernel",
          "[prepare][unified]") {
  // Launch sizes come from the integer Concrete Inputs (here xnumel 888).
  const std::string described =
      R"("Input Dims":[[888],[888],[]],"Input type":["c10::BFloat16","c10::BFloat16","Scalar"],)"
      R"("Concrete Inputs":["","","888"])";
  const std::string text =
      loupe::test::inline_trace::trace_document(launch("triton_poi_fused_add_0", described, 1, 0) +
                                                launch("triton_poi_fused_mul_1", "", 2, 100));
  auto loaded = lt::load_trace_bytes(text);
  REQUIRE_FALSE(loaded.error.has_value());
  lt::TreeOptions options;
  options.time_mode = lt::TimeMode::kTraceLensCompat;
  const auto tree = lt::EventTree::build(loaded.model, options);

  const auto collected = lp::unified::collect_unified_perf_events(loaded.model, tree);
  REQUIRE(collected.size() == 2);
  CHECK(collected[0].name == "triton_poi_fused_add_0");
  CHECK(collected[0].kind == lp::unified::CollectedKind::kModeled);
  CHECK(lp::trace_op_has_model(loaded.model, collected[0].source));
  CHECK(collected[1].name == "triton_poi_fused_mul_1");
  CHECK(collected[1].kind == lp::unified::CollectedKind::kLeaf);
  CHECK_FALSE(lp::trace_op_has_model(loaded.model, collected[1].source));

  // Both rows are kept; only the described one carries perf_params (xnumel 888).
  const std::string csv = lp::unified_perf_summary_csv(loaded.model, tree, nullptr);
  INFO(csv);
  CHECK_THAT(csv, Catch::Contains("triton_poi_fused_add_0,triton") &&
                      Catch::Contains("'xnumel': 888") &&
                      Catch::Contains("triton_poi_fused_mul_1,triton"));
}
