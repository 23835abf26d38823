// orchestrator_prepare Step 5 (docs/contracts/conv.md §1.2): unified_perf_summary.csv rows split by
// `op category` into category_data/<cat>_ops.csv, with the manifest entries and the
// time breakdown of Step 5.5.
#pragma once

#include <string>
#include <vector>

#include "loupe/core/model/csv_table.hpp"
#include "loupe/json_value.hpp"

namespace loupe::core::prepare::analysis_dir {

struct CategoryExport {
  std::string name;          // file key, e.g. "conv_fwd"
  std::string display_name;  // `op category` as written, e.g. "CONV_fwd"
  std::string csv_text;      // <name>_ops.csv as pandas writes the filtered frame
  std::size_t ops_count = 0;
  Json time_breakdown;  // gpu_kernel_time_ms, cpu_duration_ms, sync_time_ms, sync_ops_count,
                        // has_sync_bottleneck (Step 5.5)
};

// The category file key of an `op category` value: ' ' and '/' become '_', lower case; an
// empty value is "other".
std::string category_file_key(std::string_view op_category);

// Categories in first-appearance order of the table's rows.
std::vector<CategoryExport> split_categories(const CsvTable& unified);

// The skill TraceLens's orchestrator assigns to a category key.
std::string category_skill(std::string_view category_name);

}  // namespace loupe::core::prepare::analysis_dir
