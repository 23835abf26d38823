// Rows of the kernel-launcher DataFrame.
#include "launcher_rows.hpp"

#include "loupe/core/prepare/perf_model.hpp"
#include "loupe/core/prepare/trace_arg_cache.hpp"

namespace loupe::core::prepare::ops {

namespace {

std::string thread_field(const trace::TraceModel& model, trace::Uid uid,
                         std::string_view (trace::TraceModel::*field)(std::uint32_t) const) {
  const std::uint32_t thread = model.event(uid).thread;
  if (thread == trace::kNoIndex) return "Unknown";
  return std::string((model.*field)(thread));
}

}  // namespace

LauncherTable launcher_table(const trace::TraceModel& model,
                             std::span<const KernelLauncher> launchers) {
  LauncherTable table;
  TraceArgCache args(model);
  table.rows.reserve(launchers.size());
  table.direct.is_int = true;
  table.subtree.is_int = true;
  for (const KernelLauncher& launcher : launchers) {
    LauncherRow row;
    row.uid = launcher.uid;
    row.name = std::string(model.name(launcher.uid));
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
      if (const std::string* str = TraceArgCache::python_str(*found[i], true)) row.args[i] = *str;
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
