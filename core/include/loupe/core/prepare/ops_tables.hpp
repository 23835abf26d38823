// TraceLens's kernel-launcher tables (docs/contracts/trace_model.md §3.3–§3.5): `ops_summary.csv`,
// `ops_summary_by_category.csv` and `ops_unique_args.csv`, byte for byte. Requires the tree
// built with TimeMode::kTraceLensCompat (and python events, as TraceLens's
// --include_call_stack report does).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "loupe/core/prepare/gpu_intervals.hpp"  // PandasNumber
#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/trace_model.hpp"

namespace loupe::core::prepare {

// A cpu_op (or, when no cpu_op encloses the launch, the runtime call itself) that directly
// launched GPU ops (§3.3).
struct KernelLauncher {
  trace::Uid uid = trace::kNoUid;
  std::vector<trace::Uid> direct_ops;  // kernel_details order (by ts, then UID)
  PandasNumber direct_time;            // busy time of direct_ops, µs
  PandasNumber subtree_time;           // busy time of every GPU op under the launcher, µs
};

// Launchers ordered by ts (ties: order of their first GPU op in UID order). Communication
// kernels are not direct ops of anyone.
std::vector<KernelLauncher> kernel_launchers(const trace::TraceModel& model,
                                             const trace::EventTree& tree);

// GPUEventAnalyser busy_time of a set of GPU ops: length of the union of [ts, ts + dur] in
// TraceLens's doubles; a Python int when every op has integer ts and dur tokens; int 0 when
// empty.
PandasNumber gpu_busy_time(const trace::TraceModel& model, std::span<const trace::Uid> gpu_ops);

struct OpsTablesOptions {
  bool group_by_num_kernels = true;  // TraceLens --group_by_num_kernels
};

// The three CSV documents (empty strings for a GPU-only trace, which gets none of them).
struct OpsTables {
  std::string ops_summary_csv;
  std::string ops_summary_by_category_csv;
  std::string ops_unique_args_csv;
};

OpsTables build_ops_tables(const trace::TraceModel& model, const trace::EventTree& tree,
                           const OpsTablesOptions& options = {});
// The same from kernel_launchers(model, tree), computed once for every table of the perf report.
OpsTables build_ops_tables(const trace::TraceModel& model, const trace::EventTree& tree,
                           std::span<const KernelLauncher> launchers,
                           const OpsTablesOptions& options = {});

}  // namespace loupe::core::prepare
