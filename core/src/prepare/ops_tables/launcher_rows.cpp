// Rows of the kernel-launcher DataFrame.
#include "launcher_rows.hpp"

#include "loupe/core/prepare/perf_model.hpp"

namespace loupe::core::prepare::ops {

namespace {

std::string_view thread_field(const trace::TraceModel& model, trace::Uid uid,
                              std::string_view (trace::TraceModel::*field)(std::uint32_t) const) {
  const std::uint32_t thread = model.event(uid).thread;
  if (thread == trace::kNoIndex) return "Unknown";
  return (model.*field)(thread);
}

}  // namespace

LauncherTable launcher_table(const trace::TraceModel& model,
                             std::span<const KernelLauncher> launchers) {
  LauncherTable table;
  table.args = std::make_unique<TraceArgCache>(model);
  TraceArgCache& args = *table.args;
  table.rows.reserve(launchers.size());
  table.direct.is_int = true;
  table.subtree.is_int = true;
  for (const KernelLauncher& launcher : launchers) {
    LauncherRow row;
    row.uid = launcher.uid;
    row.name = model.name(launcher.uid);
    row.kernel_details = kernel_details_of(model, launcher.direct_ops);
    row.num_kernels = static_cast<std::int64_t>(row.kernel_details.size());
    row.category = perf::op_category(
        row.name, row.kernel_details.empty() ? std::string_view() : row.kernel_details[0].name);
    row.process_name = thread_field(model, launcher.uid, &trace::TraceModel::process_name);
    row.process_label = thread_field(model, launcher.uid, &trace::TraceModel::process_label);
    row.thread_name = thread_field(model, launcher.uid, &trace::TraceModel::thread_name);
    const auto found = args.find(launcher.uid, kArgColumns);
    for (std::size_t i = 0; i < found.size(); ++i) {
      if (found[i] == nullptr) continue;
      // JSON null is None
      row.args[i] = TraceArgCache::python_str(*found[i], true);
    }
    table.rows.push_back(std::move(row));
    table.direct.values.push_back(launcher.direct_time.value);
    table.direct.is_int = table.direct.is_int && launcher.direct_time.is_int;
    table.subtree.values.push_back(launcher.subtree_time.value);
    table.subtree.is_int = table.subtree.is_int && launcher.subtree_time.is_int;
  }
  return table;
}

}  // namespace loupe::core::prepare::ops
