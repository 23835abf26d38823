// TraceLens's TraceDiff (the perf report's --comparison_json_path): the two event trees are
// aligned child list by child list (Wagner-Fischer on normalized names, plus TraceLens's
// wrapper-collapsing passes), merged into one tree of "combined" / "trace1" / "trace2" nodes,
// and every kernel under a point of difference is reported with its lowest common ancestor
// (LCA) in that merged tree: `diff_stats.csv`, and the 7 comparison columns the report adds to
// trace 1's `unified_perf_summary.csv`. Facts and quirks: docs/trace-diff.md.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "loupe/core/prepare/gpu_intervals.hpp"  // PandasNumber
#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/trace_model.hpp"

namespace loupe::core::prepare {

// One trace as TraceDiff reads it. Both trees must be built with the same options as the
// unified perf report (analysis_dir_writer.hpp prepare_tree_options()).
struct TraceSide {
  const trace::TraceModel& model;
  const trace::EventTree& tree;
};

enum class DiffSource : std::uint8_t { kTrace1, kTrace2 };

// A node of the merged tree; its index is TraceLens's merged_id (pre-order numbering).
struct MergedNode {
  trace::Uid uid1 = trace::kNoUid;  // kNoUid: the node exists only in trace 2
  trace::Uid uid2 = trace::kNoUid;  // kNoUid: the node exists only in trace 1
  std::vector<std::size_t> children;
  bool combined() const { return uid1 != trace::kNoUid && uid2 != trace::kNoUid; }
};

// One row of diff_stats.csv: a kernel under a point of difference, with the texts TraceLens
// writes for it.
struct DiffStatsRow {
  std::string name;         // the kernel's name
  std::string cpu_op_name;  // its nearest cpu_op ancestor
  trace::Uid cpu_op_uid = trace::kNoUid;
  DiffSource source = DiffSource::kTrace1;
  std::string input_dims, input_strides, input_type, concrete_inputs;  // str() or ""
  PandasNumber kernel_time;                                            // the kernel's dur
  PandasNumber busy_time;  // busy time of the LCA's kernels on this side (before rounding)
  std::optional<std::string> lca_name;
  std::optional<std::size_t> lca_id;  // merged-tree node id
  trace::Uid gpu_op_uid = trace::kNoUid;
  std::string nn_module_stack, nn_module_parent;
};

// What one unified_perf_summary row gets from the LCAs of its trace-1 kernels.
struct LcaSummary {
  std::string lca_ids;    // "1; 11"
  std::string lca_names;  // "aten::bmm; aten::bmm"
  double total_kernel_time_trace1_us = 0;
  double total_kernel_time_trace2_us = 0;
  int count_trace2 = 0;  // how many of the LCAs have trace-2 kernels
};

// The 7 columns inserted after `Kernel Time (µs)_sum`, in order.
inline constexpr std::array<std::string_view, 7> kComparisonColumns = {
    "speedup (trace2/trace1)",
    "delta_us (trace2 - trace1)",
    "lca_count_trace2",
    "lca_id",
    "lca_name",
    "lca_total_kernel_time_trace1_us",
    "lca_total_kernel_time_trace2_us"};

// The default of TraceDiffOptions::max_disambiguation_pairs.
inline constexpr std::size_t kDefaultMaxDisambiguationPairs = 1'000'000;

struct TraceDiffOptions {
  // TraceLens re-matches a name repeated in both child lists by scoring every (trace-1 child,
  // trace-2 child) pair of that name. A name with more pairs than this keeps its
  // Wagner-Fischer matches instead (a deviation from TraceLens, docs/trace-diff.md section 7;
  // counted by TraceComparison::skipped_disambiguations()).
  std::size_t max_disambiguation_pairs = kDefaultMaxDisambiguationPairs;
};

class TraceComparison {
 public:
  // Runs the alignment, the merge and the diff-stats pass. Self-contained afterwards (keeps no
  // reference to the inputs).
  static TraceComparison compare(TraceSide trace1, TraceSide trace2,
                                 const TraceDiffOptions& options = {});

  const std::vector<MergedNode>& merged_nodes() const { return nodes_; }
  const std::vector<std::size_t>& merged_roots() const { return roots_; }
  // Every row TraceDiff produced (both sources), before the identical-traces reduction.
  const std::vector<DiffStatsRow>& rows() const { return rows_; }
  // TraceLens's "identical traces": the trace-1 rows equal the trace-2 rows cell by cell
  // (or there is no row at all).
  bool identical_traces() const { return identical_; }
  // How many re-matchings of a repeated name were skipped because the name had more candidate
  // pairs than TraceDiffOptions::max_disambiguation_pairs. When nonzero the merged tree (and so
  // the LCAs) may differ from TraceLens's; callers should warn.
  std::size_t skipped_disambiguations() const { return skipped_disambiguations_; }

  // diff_stats.csv as the perf report writes it; nullopt when TraceDiff found no kernel
  // (the report then writes no such file).
  std::optional<std::string> diff_stats_csv() const;

  // The LCA metadata of each unified_perf_summary row. `kernel_to_row` maps every trace-1 GPU
  // op covered by the summary to its row index (when an op is in several rows, the last one
  // in table-building order). Empty when the report adds no comparison columns.
  std::vector<std::optional<LcaSummary>> lca_summaries(
      const std::unordered_map<trace::Uid, std::size_t>& kernel_to_row,
      std::size_t row_count) const;

 private:
  std::vector<MergedNode> nodes_;
  std::vector<std::size_t> roots_;
  std::vector<DiffStatsRow> rows_;
  bool identical_ = false;
  std::size_t skipped_disambiguations_ = 0;
};

}  // namespace loupe::core::prepare
