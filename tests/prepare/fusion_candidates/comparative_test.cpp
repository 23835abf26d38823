// Comparative fusion candidates (spec docs/contracts/fusion.md §1.3, §2.7): CPython's set order for
// the LCA ids, the gates on a small inline trace, and byte parity with TraceLens's comparative
// runs.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "inline_trace.hpp"
#include "loupe/core/model/csv_table.hpp"
#include "loupe/core/prepare/analysis_dir_writer.hpp"
#include "loupe/core/prepare/fusion_candidates.hpp"
#include "loupe/core/trace/json_reader.hpp"
#include "python_set_order.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;
namespace lp = loupe::core::prepare;
namespace lt = loupe::core::trace;

namespace {

using loupe::test::inline_trace::op_with_kernel;

// Trace 1: two RMSNorm modules of four kernels each, and a two-kernel add module.
std::string trace1() {
  std::string events;
  int id = 1;
  for (int instance = 0; instance < 2; ++instance) {
    const int ts = instance * 100;
    events += R"({"ph":"X","cat":"python_function","name":"nn.Module: RMSNorm_)" +
              std::to_string(instance) + R"(","pid":1,"tid":1,"ts":)" + std::to_string(ts) +
              R"(,"dur":90,"args":{}},)";
    events += op_with_kernel("aten::pow", "pow_kernel", id++, ts + 1, 10);
    events += op_with_kernel("aten::mean", "mean_kernel", id++, ts + 11, 5);
    events += op_with_kernel("aten::rsqrt", "rsqrt_kernel", id++, ts + 21, 2);
    events += op_with_kernel("aten::mul", "mul_kernel", id++, ts + 31, 10 - instance);
  }
  events += R"({"ph":"X","cat":"python_function","name":"nn.Module: Add_0","pid":1,"tid":1,)"
            R"("ts":300,"dur":40,"args":{}},)";
  events += op_with_kernel("aten::add", "ew_a", id++, 301, 3);
  events += op_with_kernel("aten::add", "ew_b", id++, 311, 3);
  return loupe::test::inline_trace::trace_document(events);
}

lt::Uid kernel_uid(const lt::TraceModel& model, std::string_view name, int nth) {
  for (lt::Uid uid = 0; uid < static_cast<lt::Uid>(model.event_count()); ++uid) {
    if (model.event(uid).category == lt::Category::kKernel && model.name(uid) == name &&
        nth-- == 0) {
      return uid;
    }
  }
  FAIL("no kernel " << name);
  return lt::kNoUid;
}

}  // namespace

TEST_CASE("LCA ids are iterated in CPython's set order", "[prepare][fusion]") {
  using lp::fusion::python_set_iteration_order;
  // Values and orders printed by CPython 3.10 (`list(set_built_by_add)`).
  CHECK(python_set_iteration_order({50, 60, 70}) == std::vector<std::int64_t>{50, 60, 70});
  CHECK(python_set_iteration_order({70, 60, 50}) == std::vector<std::int64_t>{50, 60, 70});
  CHECK(python_set_iteration_order({9, 1, 17, 9}) == std::vector<std::int64_t>{9, 1, 17});
  // The fifth element fills 3/5 of the 8 slots: the table grows to 32 and 3 lands first.
  CHECK(python_set_iteration_order({70, 60, 50, 8, 16, 3}) ==
        std::vector<std::int64_t>{3, 70, 8, 16, 50, 60});
  CHECK(python_set_iteration_order({100, 3, 1000, 8, 24, 40, 5}) ==
        std::vector<std::int64_t>{3, 100, 5, 1000, 8, 40, 24});
  CHECK(lp::fusion::python_int_hash(-1) == -2);
  CHECK(lp::fusion::python_int_hash(std::int64_t{1} << 61) == 1);
}

TEST_CASE("comparative candidates from an inline trace and diff table", "[prepare][fusion]") {
  auto loaded = lt::load_trace_bytes(trace1());
  REQUIRE_FALSE(loaded.error.has_value());
  const auto tree = lt::EventTree::build(loaded.model, lp::prepare_tree_options());
  const auto& model = loaded.model;
  const auto uid = [&](std::string_view name, int nth) {
    return std::to_string(kernel_uid(model, name, nth));
  };
  // RMSNorm_0's kernels map to LCA 50, RMSNorm_1's to 60, each to one fused trace-2 kernel;
  // the add pair maps to LCA 70 whose trace-2 kernel (7 µs) is slower than the pair (6 µs).
  const std::string diff =
      "name,source,lowest_common_ancestor_id,kernel_time,gpu_op_uid\n"
      "pow_kernel,trace1,50.0,10.0," +
      uid("pow_kernel", 0) + "\n" + "mean_kernel,trace1,50.0,5.0," + uid("mean_kernel", 0) + "\n" +
      "rsqrt_kernel,trace1,50.0,2.0," + uid("rsqrt_kernel", 0) + "\n" +
      "mul_kernel,trace1,50.0,10.0," + uid("mul_kernel", 0) + "\n" +
      "pow_kernel,trace1,60.0,10.0," + uid("pow_kernel", 1) + "\n" +
      "mean_kernel,trace1,60.0,5.0," + uid("mean_kernel", 1) + "\n" +
      "rsqrt_kernel,trace1,60.0,2.0," + uid("rsqrt_kernel", 1) + "\n" +
      "mul_kernel,trace1,60.0,9.0," + uid("mul_kernel", 1) + "\n" + "ew_a,trace1,70.0,3.0," +
      uid("ew_a", 0) + "\n" + "ew_b,trace1,70.0,3.0," + uid("ew_b", 0) + "\n" +
      "fused_rmsnorm_kernel,trace2,50.0,12.0,900\n"
      "fused_rmsnorm_kernel,trace2,60.0,12.5,901\n"
      "ew_ab_fused,trace2,70.0,7.0,902\n"
      "orphan,trace2,,7.0,903\n";
  const auto result = lp::fusion_candidates_comparative(model, tree, loupe::core::parse_csv(diff));
  INFO(result.json);
  REQUIRE_FALSE(result.failed);
  // RMSNorm: 2 instances (27 + 26 µs vs 12 + 12.5 µs); the add pair fails t1 >= t2 (6 < 7);
  // the LCA column holds an empty cell, so pandas reads it as float and prints 50.0.
  REQUIRE(result.candidate_count == 1);
  CHECK_THAT(result.json, Catch::Contains(R"("base_name": "RMSNorm")") &&
                              Catch::Contains(R"("instance_count": 2)") &&
                              Catch::Contains(R"("kernel_count_trace1": 4)") &&
                              Catch::Contains(R"("kernel_count_trace2": 1)") &&
                              Catch::Contains(R"("delta": 3)") &&
                              Catch::Contains(R"("lca_id": 50.0)") &&
                              Catch::Contains(R"("total_kernel_time_us_trace1": 53.0)") &&
                              Catch::Contains(R"("total_kernel_time_us_trace2": 24.5)") &&
                              Catch::Contains(R"("kernel_type_summary": {)"));
  CHECK_THAT(result.json, !Catch::Contains("ew_a") && !Catch::Contains("orphan"));
}

TEST_CASE("comparative extraction without usable diff stats yields no candidate",
          "[prepare][fusion]") {
  auto loaded = lt::load_trace_bytes(trace1());
  REQUIRE_FALSE(loaded.error.has_value());
  const auto tree = lt::EventTree::build(loaded.model, lp::prepare_tree_options());
  const auto no_lca =
      lp::fusion_candidates_comparative(loaded.model, tree, loupe::core::parse_csv("name\nx\n"));
  CHECK(no_lca.json == "[]");
  CHECK_FALSE(no_lca.failed);
  CHECK_THAT(no_lca.error, Catch::Contains("lowest_common_ancestor_id"));
  const auto no_trace1 = lp::fusion_candidates_comparative(
      loaded.model, tree,
      loupe::core::parse_csv("name,source,lowest_common_ancestor_id\nk,trace2,1\n"));
  CHECK(no_trace1.json == "[]");
  CHECK_THAT(no_trace1.error, Catch::Contains("trace-1"));
}

TEST_CASE("comparative fusion candidates equal TraceLens's on the comparative runs",
          "[prepare][fusion][parity][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  for (const char* pair : {"test01_moe_fused_vs_unfused", "test02_attention_both_unfused",
                           "test03_attention_fused_vs_unfused"}) {
    INFO(pair);
    const fs::path run = shared / "data/reference" / (std::string("comparative_utc_") + pair);
    auto loaded =
        lt::load_trace(shared / "data/traces/unit_tests_comparative" / pair / "trace1.json");
    REQUIRE_FALSE(loaded.error.has_value());
    const auto tree = lt::EventTree::build(loaded.model, lp::prepare_tree_options());
    const auto diff = loupe::core::parse_csv(
        loupe::test::read_text(run / "perf_report_trace1_csvs/diff_stats.csv"));
    const auto result = lp::fusion_candidates_comparative(loaded.model, tree, diff);
    CHECK(result.json == loupe::test::read_text(run / "category_data/fusion_candidates.json"));
  }
}
