// Vendor categories from the perf summary (docs/plugin-abi.md, "Vendor categories"): which rows
// of unified_perf_summary.csv each plugin's selectors take, as <cat>_ops.csv text with the
// columns of category_split's files, and what each selector matched.
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "loupe/core/model/csv_table.hpp"
#include "loupe/core/prepare/op_groups.hpp"
#include "loupe/core/prepare/vendor_categories.hpp"
#include "loupe/json_value.hpp"

namespace loupe::core::prepare::analysis_dir {

// What one selector, or a whole category, matched: rows of the summary (ops), GPU ops of those
// rows whose names match (kernels), and their summed duration.
struct VendorMatch {
  std::size_t ops = 0;
  std::size_t kernels = 0;
  double gpu_time_us = 0.0;
  // Every GPU op of the trace whose name matches a kernel pattern, in a row or not (a kernel no
  // host op launched, or one whose op the perf summary leaves out, is in no row).
  std::size_t trace_kernels = 0;
  double trace_gpu_time_us = 0.0;
};

struct VendorCategoryExport {
  std::string name;
  std::string plugin;
  std::string plugin_path;
  Tier tier = Tier::Compute;
  std::string csv_text;  // <name>_ops.csv
  VendorMatch total;
  std::vector<std::pair<const VendorSelector*, VendorMatch>> selectors;
};

struct GpuOpView {
  std::string_view name;
  double dur_us = 0.0;
};

// A row belongs to a category when, for one of its selectors, the row's `name` matches the op
// pattern (if any) and one of the row's GPU ops matches the kernel pattern (if any). Categories
// in selector order; rows in the summary's order.
// `trace_gpu_ops` lists every GPU op of the trace, for the trace-wide counts.
std::vector<VendorCategoryExport> split_vendor_categories(
    const CsvTable& unified, std::span<const OpGroupKernels> groups,
    std::span<const trace::Uid> trace_gpu_ops, const std::function<GpuOpView(trace::Uid)>& gpu_op,
    const std::vector<VendorSelector>& selectors);

// category_data/vendor_categories.json: {"categories": [{name, plugin, plugin_path, tier,
// csv_file, ops, kernels, gpu_time_us, trace_kernels, trace_gpu_time_us, selectors: [{index,
// kernel_pattern, op_pattern, ops, kernels, gpu_time_us, trace_kernels, trace_gpu_time_us}]}]}
// (trace_* only for selectors with a kernel pattern).
Json vendor_categories_json(const std::vector<VendorCategoryExport>& categories);

}  // namespace loupe::core::prepare::analysis_dir
