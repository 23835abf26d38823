// The kernel-launcher DataFrame behind the ops tables (TraceLens get_df_kernel_launchers):
// one row per launcher with its grouping columns rendered as the str() pandas groups on.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "loupe/core/prepare/kernel_details_summary.hpp"
#include "loupe/core/prepare/ops_tables.hpp"
#include "loupe/core/prepare/pandas_numerics.hpp"
#include "loupe/core/prepare/trace_arg_cache.hpp"

namespace loupe::core::prepare::ops {

inline constexpr const char* kArgColumns[] = {"Input Dims", "Input type", "Input Strides",
                                              "Concrete Inputs"};

// A big trace has hundreds of thousands of launchers: the texts are views of the trace model's
// strings and of the table's args cache, not copies.
struct LauncherRow {
  trace::Uid uid = trace::kNoUid;
  std::string_view name;
  std::string category;  // `op category` (short: no allocation)
  std::string_view process_name, process_label, thread_name;
  // str() of the tuple-converted arg, owned by LauncherTable::args; nullptr = None.
  const std::string* args[4] = {};
  std::int64_t num_kernels = 0;
  std::vector<KernelDetail> kernel_details;
};

// Valid while the trace model is.
struct LauncherTable {
  std::unique_ptr<TraceArgCache> args;  // owns the rows' arg texts
  std::vector<LauncherRow> rows;
  NumericColumn direct;   // total_direct_kernel_time
  NumericColumn subtree;  // total_subtree_kernel_time
};

LauncherTable launcher_table(const trace::TraceModel& model,
                             std::span<const KernelLauncher> launchers);

std::string ops_summary_csv(const LauncherTable& table);
std::string ops_summary_by_category_csv(const LauncherTable& table);
std::string ops_unique_args_csv(const LauncherTable& table, bool group_by_num_kernels);

}  // namespace loupe::core::prepare::ops
