#include "loupe/core/prepare/unified_perf_summary.hpp"

#include <vector>

#include "collect_events.hpp"
#include "loupe/core/prepare/call_stack.hpp"
#include "unified_rows.hpp"
#include "unified_summary.hpp"

namespace loupe::core::prepare {
namespace {

// The template row's GPU ops in the order of the group's kernel summary (sorted by total time,
// then name): each summary entry takes the first unused position with its name and stream.
std::vector<trace::Uid> kernels_in_summary_order(const unified::UnifiedRow& row,
                                                 std::span<const KernelStats> summary) {
  std::vector<bool> used(row.kernel_details.size(), false);
  std::vector<trace::Uid> out;
  out.reserve(summary.size());
  for (const KernelStats& entry : summary) {
    for (std::size_t i = 0; i < row.kernel_details.size(); ++i) {
      const KernelDetail& k = row.kernel_details[i];
      if (used[i] || k.name != entry.name || k.stream_repr != entry.stream_repr) continue;
      used[i] = true;
      out.push_back(row.gpu_events[i]);
      break;
    }
  }
  return out;
}

}  // namespace

std::string unified_perf_summary_csv(const trace::TraceModel& model, const trace::EventTree& tree,
                                     const perf::Arch* arch, const TraceComparison* comparison) {
  return unified_perf_summary_csv(model, tree, arch, comparison, kernel_launchers(model, tree),
                                  unified::collect_unified_perf_events(model, tree));
}

std::string unified_perf_summary_csv(const trace::TraceModel& model, const trace::EventTree& tree,
                                     const perf::Arch* arch, const TraceComparison* comparison,
                                     std::span<const KernelLauncher> launchers,
                                     std::span<const unified::CollectedEvent> collected,
                                     std::vector<OpGroupKernels>* groups, bool loupe_models) {
  TraceArgCache args(model);  // owns the rows' args texts
  const auto rows =
      unified::build_unified_rows(args, tree, launchers, collected, arch, loupe_models);
  if (groups != nullptr) *groups = unified::group_kernels(rows);
  unified::CallStackFn call_stacks;
  if (tree.options().add_python_func) {  // TraceLens's --include_call_stack
    call_stacks = [&](const unified::UnifiedRow& row, std::span<const KernelStats> summary) {
      const auto kernels = kernels_in_summary_order(row, summary);
      const CallStackColumns cells =
          row.synthetic ? synthetic_call_stack_columns(model, kernels, row.name)
                        : call_stack_columns(model, tree, row.source, kernels, row.name);
      return unified::CallStackCells{cells.entry_point, cells.call_stack_full};
    };
  }
  return unified::unified_summary_csv(rows, arch != nullptr, call_stacks, comparison);
}

}  // namespace loupe::core::prepare
