// TraceDiff on two tiny inline traces, with the merged tree, the LCAs and diff_stats.csv worked
// out by hand from TraceLens's algorithm (docs/trace-diff.md).
#include <catch2/catch.hpp>

#include <string>
#include <unordered_map>
#include <vector>

#include "inline_trace.hpp"
#include "loupe/core/prepare/trace_diff.hpp"
#include "loupe/core/trace/json_reader.hpp"
#include "prepare_test_support.hpp"

namespace lp = loupe::core::prepare;
namespace lt = loupe::core::trace;

namespace {

using loupe::test::inline_trace::cpu_op;
using loupe::test::inline_trace::launch;
using loupe::test::inline_trace::trace_document;

// UIDs: 0 step, 1 aten::linear, 2 launch, 5 gemm_a, 6 aten::relu, 7 launch, 10 relu_k.
std::string trace1() {
  return trace_document(cpu_op("step", 0, 100) +
                        cpu_op("aten::linear", 10, 20, R"("Input Dims":[[4,8],[8,16]])") +
                        launch("gemm_a", 1, 12, 40, 10) + cpu_op("aten::relu", 50, 20) +
                        launch("relu_k", 2, 52, 60, 5));
}

// UIDs: 0 step, 1 aten::linear, 2 launch, 5 gemm_b, 6 aten::gelu, 7 launch, 10 gelu_k,
// 11 aten::add, 12 launch, 15 add_k.
std::string trace2() {
  return trace_document(
      cpu_op("step", 0, 100) + cpu_op("aten::linear", 10, 20, R"("Input Dims":[[4,8],[8,16]])") +
      launch("gemm_b", 1, 12, 40, 8) + cpu_op("aten::gelu", 35, 10) +
      launch("gelu_k", 2, 37, 50, 4) + cpu_op("aten::add", 60, 10) + launch("add_k", 3, 62, 70, 3));
}

using Side = loupe::test::TraceWithTree;
using loupe::test::load_with_report_tree_from_text;

}  // namespace

TEST_CASE("TraceDiff merges two small traces and finds each kernel's LCA",
          "[prepare][trace_diff]") {
  const Side a = load_with_report_tree_from_text(trace1());
  const Side b = load_with_report_tree_from_text(trace2());
  const auto comparison =
      lp::TraceComparison::compare({a.loaded.model, a.tree}, {b.loaded.model, b.tree});

  // step's children: [linear, relu] against [linear, gelu, add]. Wagner-Fischer matches the
  // linears and leaves relu deleted, gelu and add inserted. All three wrap a single
  // cudaLaunchKernel, so TraceLens's wrapper reconciliation replaces each by its launch and
  // re-aligns the launches: relu's launch is matched with add's (the last of the two equal
  // names), gelu's stays trace-2 only. The cpu_ops relu / add vanish from the merged tree.
  const auto& nodes = comparison.merged_nodes();
  REQUIRE(nodes.size() == 8);
  REQUIRE(comparison.merged_roots() == std::vector<std::size_t>{0});
  CHECK(nodes[0].uid1 == 0);  // step | step
  CHECK(nodes[0].uid2 == 0);
  CHECK(nodes[0].children == std::vector<std::size_t>{1, 4, 6});
  CHECK((nodes[3].uid1 == 5 && nodes[3].uid2 == 5));  // gemm_a | gemm_b, paired by position
  CHECK((nodes[4].uid1 == lt::kNoUid && nodes[4].uid2 == 7));   // gelu's launch, trace 2 only
  CHECK((nodes[5].uid1 == lt::kNoUid && nodes[5].uid2 == 10));  // gelu_k
  CHECK((nodes[6].uid1 == 7 && nodes[6].uid2 == 12));           // relu's launch | add's launch
  CHECK((nodes[7].uid1 == 10 && nodes[7].uid2 == 15));          // relu_k | add_k

  // gelu_k has no counterpart: its LCA is step (id 0). Kernels matched as a pair of
  // differently named kernels are their own LCA, named "<trace1> | <trace2>".
  const auto& rows = comparison.rows();
  REQUIRE(rows.size() == 5);
  CHECK(rows[0].name == "gelu_k");
  CHECK(rows[0].source == lp::DiffSource::kTrace2);
  CHECK(rows[0].lca_id == std::optional<std::size_t>(0));
  CHECK(rows[0].lca_name == std::optional<std::string>("step"));
  CHECK(rows[1].name == "gemm_a");
  CHECK(rows[1].lca_id == std::optional<std::size_t>(3));
  CHECK(rows[1].lca_name == std::optional<std::string>("gemm_a | gemm_b"));
  CHECK(rows[4].name == "add_k");
  CHECK(rows[4].cpu_op_name == "aten::add");
  CHECK(rows[4].lca_id == std::optional<std::size_t>(7));
  CHECK_FALSE(comparison.identical_traces());

  const std::string expected =
      "name,cpu_op_name,cpu_op_uid,source,Input Dims,Input Strides,Input type,Concrete Inputs,"
      "kernel_time,busy_time,lowest_common_ancestor_name,lowest_common_ancestor_id,gpu_op_uid,"
      "nn_module_stack,nn_module_parent\n"
      "gelu_k,aten::gelu,6,trace2,,,,,4.0,4.0,step,0,10,root,root\n"
      "gemm_a,aten::linear,1,trace1,\"((4, 8), (8, 16))\",,,,10.0,10.0,gemm_a | gemm_b,3,5,root,"
      "root\n"
      "gemm_b,aten::linear,1,trace2,\"((4, 8), (8, 16))\",,,,8.0,8.0,gemm_a | gemm_b,3,5,root,"
      "root\n"
      "relu_k,aten::relu,6,trace1,,,,,5.0,5.0,relu_k | add_k,7,10,root,root\n"
      "add_k,aten::add,11,trace2,,,,,3.0,3.0,relu_k | add_k,7,15,root,root\n";
  CHECK(comparison.diff_stats_csv() == std::optional<std::string>(expected));

  // Per summary row: gemm_a in row 0, relu_k in row 1.
  const auto summaries = comparison.lca_summaries({{5, 0}, {10, 1}}, 2);
  REQUIRE(summaries.size() == 2);
  REQUIRE(summaries[0].has_value());
  CHECK(summaries[0]->lca_ids == "3");
  CHECK(summaries[0]->lca_names == "gemm_a | gemm_b");
  CHECK(summaries[0]->total_kernel_time_trace1_us == 10.0);
  CHECK(summaries[0]->total_kernel_time_trace2_us == 8.0);
  CHECK(summaries[0]->count_trace2 == 1);
  REQUIRE(summaries[1].has_value());
  CHECK(summaries[1]->lca_ids == "7");
  CHECK(summaries[1]->total_kernel_time_trace2_us == 3.0);
}

TEST_CASE("TraceDiff of a trace with itself is 'identical traces'", "[prepare][trace_diff]") {
  const Side a = load_with_report_tree_from_text(trace1());
  const Side b = load_with_report_tree_from_text(trace1());
  const auto comparison =
      lp::TraceComparison::compare({a.loaded.model, a.tree}, {b.loaded.model, b.tree});
  // Every node is combined, yet each matched pair of kernels is its own LCA (TraceLens tests
  // "both are kernels", not "names differ"), so every kernel still gets a row on both sides.
  REQUIRE(comparison.rows().size() == 4);
  CHECK(comparison.rows()[0].lca_name == std::optional<std::string>("gemm_a"));
  CHECK(comparison.rows()[0].lca_id == std::optional<std::size_t>(3));
  // The two sides' rows are equal cell by cell: TraceLens keeps the trace-1 rows only and drops
  // the `source` column.
  CHECK(comparison.identical_traces());
  const std::string expected =
      "name,cpu_op_name,cpu_op_uid,Input Dims,Input Strides,Input type,Concrete Inputs,"
      "kernel_time,busy_time,lowest_common_ancestor_name,lowest_common_ancestor_id,gpu_op_uid,"
      "nn_module_stack,nn_module_parent\n"
      "gemm_a,aten::linear,1,\"((4, 8), (8, 16))\",,,,10.0,10.0,gemm_a,3,5,root,root\n"
      "relu_k,aten::relu,6,,,,,5.0,5.0,relu_k,6,10,root,root\n";
  CHECK(comparison.diff_stats_csv() == std::optional<std::string>(expected));
  // TraceLens's enrichment then fails on the missing `source` column: no comparison columns.
  CHECK(comparison.lca_summaries({{5, 0}}, 1).empty());
}
