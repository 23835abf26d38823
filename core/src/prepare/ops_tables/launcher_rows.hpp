// The kernel-launcher DataFrame behind the ops tables (TraceLens get_df_kernel_launchers):
// one row per launcher with its grouping columns rendered as the str() pandas groups on.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "loupe/core/prepare/kernel_details_summary.hpp"
#include "loupe/core/prepare/ops_tables.hpp"
#include "loupe/core/prepare/pandas_numerics.hpp"

namespace loupe::core::prepare::ops {

inline constexpr const char* kArgColumns[] = {"Input Dims", "Input type", "Input Strides",
                                              "Concrete Inputs"};

struct LauncherRow {
  trace::Uid uid = trace::kNoUid;
  std::string name;
  std::string category;  // `op category`
  std::string process_name, process_label, thread_name;
  std::optional<std::string> args[4];  // str() of the tuple-converted arg; nullopt = None
  std::int64_t num_kernels = 0;
  std::vector<KernelDetail> kernel_details;
};

struct LauncherTable {
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
