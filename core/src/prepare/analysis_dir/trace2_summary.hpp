// The manifest's `trace2_ops_summary_by_category` in comparative scope: trace 2's kernel time
// per category, computed from its unified_perf_summary.csv with the category keys of the
// category split (so "GEMM" rows count under "gemm").
#pragma once

#include "loupe/core/model/csv_table.hpp"
#include "loupe/json_value.hpp"

namespace loupe::core::prepare::analysis_dir {

// Records {op category, Count, total_direct_kernel_time_ms, Percentage (%), Cumulative
// Percentage (%)}, by descending time, as TraceLens's orchestrator computes them: groupby over
// the sorted category keys (operation_count and Kernel Time (µs)_sum summed, the time scaled
// by 0.001), then passed through pandas' to_json, which rounds floats to 10 decimals.
Json trace2_ops_summary_by_category(const CsvTable& trace2_unified);

// A float as pandas' DataFrame.to_json (double_precision 10) and json.loads return it.
double pandas_to_json_float(double value);

}  // namespace loupe::core::prepare::analysis_dir
