// The 7 columns TraceLens's perf report inserts after `Kernel Time (µs)_sum` when it compares
// the trace with a second one (tracediff_comparison_extension): speedup and delta from the LCA
// totals, the LCA ids / names and their total kernel times in both traces.
#pragma once

#include <optional>
#include <vector>

#include "loupe/core/prepare/pandas_csv.hpp"
#include "loupe/core/prepare/trace_diff.hpp"

namespace loupe::core::prepare::unified {

// The cells of one summary row; all empty when the row has no LCA. The delta is the LCA's
// trace-2 total minus this row's own kernel time sum (not the LCA's trace-1 total).
std::vector<CsvValue> comparison_cells(const std::optional<LcaSummary>& summary,
                                       double row_kernel_time_sum);

}  // namespace loupe::core::prepare::unified
