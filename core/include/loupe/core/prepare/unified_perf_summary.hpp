// TraceLens's `unified_perf_summary.csv` (docs/contracts/trace_model.md §3.6): on every host path
// the highest op with a perf model, else the leaf op that launches kernels, plus synthetic rows for
// kernels nothing else covers; one row per distinct (name, category, thread, args) with perf-model
// metrics, kernel statistics and call-stack columns.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "loupe/core/prepare/op_groups.hpp"
#include "loupe/core/prepare/ops_tables.hpp"
#include "loupe/core/prepare/perf_model.hpp"
#include "loupe/core/prepare/trace_diff.hpp"
#include "loupe/core/prepare/unified_perf_events.hpp"
#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/trace_model.hpp"

namespace loupe::core::prepare {

// The CSV text as TraceLens writes it. `tree` must be built with add_python_func = true and
// TimeMode::kTraceLensCompat (the report TraceLens's orchestrator reads). With `arch` the
// roofline columns are included. With `comparison` (this trace as trace 1, from
// TraceComparison::compare) the report's 7 comparison columns follow `Kernel Time (µs)_sum`,
// as with TraceLens's --comparison_json_path.
std::string unified_perf_summary_csv(const trace::TraceModel& model, const trace::EventTree& tree,
                                     const perf::Arch* arch,
                                     const TraceComparison* comparison = nullptr);

// The same from what the perf report computes once for all its tables:
// kernel_launchers(model, tree) and unified::collect_unified_perf_events(model, tree). With
// `groups`, also every group's GPU ops (for the time ledger's `trace/op_groups.csv`). With
// `loupe_models` (default mode), also Loupe's models beyond TraceLens's (the matmul_ogs MoE
// kernels, docs/deviations.md "MoE matmuls (matmul_ogs)").
std::string unified_perf_summary_csv(const trace::TraceModel& model, const trace::EventTree& tree,
                                     const perf::Arch* arch, const TraceComparison* comparison,
                                     std::span<const KernelLauncher> launchers,
                                     std::span<const unified::CollectedEvent> collected,
                                     std::vector<OpGroupKernels>* groups = nullptr,
                                     bool loupe_models = false);

}  // namespace loupe::core::prepare
