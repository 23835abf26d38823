// build_ops_tables(): the three launcher tables of the perf report (§3.1: none for GPU-only
// traces).
#include "launcher_rows.hpp"

namespace loupe::core::prepare {

OpsTables build_ops_tables(const trace::TraceModel& model, const trace::EventTree& tree,
                           const OpsTablesOptions& options) {
  if (tree.gpu_only()) return {};
  return build_ops_tables(model, tree, kernel_launchers(model, tree), options);
}

OpsTables build_ops_tables(const trace::TraceModel& model, const trace::EventTree& tree,
                           std::span<const KernelLauncher> launchers,
                           const OpsTablesOptions& options) {
  OpsTables tables;
  if (tree.gpu_only()) return tables;
  const ops::LauncherTable table = ops::launcher_table(model, launchers);
  tables.ops_summary_csv = ops::ops_summary_csv(table);
  tables.ops_summary_by_category_csv = ops::ops_summary_by_category_csv(table);
  tables.ops_unique_args_csv = ops::ops_unique_args_csv(table, options.group_by_num_kernels);
  return tables;
}

}  // namespace loupe::core::prepare
