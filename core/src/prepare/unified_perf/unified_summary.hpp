// summarize_df_unified_perf_table (docs/contracts/trace_model.md §3.6.3): rows grouped by the str() of
// (name, category, thread, args), aggregated with pandas' groupby kernels, sorted by kernel
// time, written as TraceLens's CSV.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <vector>

#include "loupe/core/prepare/trace_diff.hpp"
#include "loupe/core/prepare/unified_perf_summary.hpp"
#include "unified_rows.hpp"

namespace loupe::core::prepare::unified {

// entry_point and call_stack_full of a group, from its first row with kernels (the template)
// and the group's kernel summary (whose order the chains follow).
struct CallStackCells {
  std::string entry_point;
  std::string call_stack_full;
};
using CallStackFn = std::function<CallStackCells(const UnifiedRow& template_row,
                                                 std::span<const KernelStats> summary)>;

// `with_roofline`: the arch columns (Roofline Bound, Roofline Time, Pct Roofline_*).
// `call_stacks`: null when the report has no call-stack columns. `comparison`: the TraceDiff
// of this trace (as trace 1) against another, for the comparison columns; may be null.
std::string unified_summary_csv(const std::vector<UnifiedRow>& rows, bool with_roofline,
                                const CallStackFn& call_stacks,
                                const TraceComparison* comparison = nullptr);

// Every GPU op of each group, keyed by the group's ex_UID (the UID of its first row), in group
// order: what `trace/op_groups.csv` holds for the time ledger.
std::vector<OpGroupKernels> group_kernels(const std::vector<UnifiedRow>& rows);

}  // namespace loupe::core::prepare::unified
