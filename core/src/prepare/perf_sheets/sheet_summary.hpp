// TraceLens's summarize_df_perf_metrics with --group_by_num_kernels (docs/contracts/trace_model.md §3.7):
// rows grouped by name + every `param: *` column (as str) + the kernel count, aggregated with
// pandas' groupby kernels, sorted by total kernel time (desc) then first UID, plus the
// truncated kernel details.
#pragma once

#include <vector>

#include "sheet_rows.hpp"
#include "sheet_table.hpp"

namespace loupe::core::prepare::sheets {

// An empty table (no columns) when there are no rows.
SheetTable summarize_sheet_rows(const std::vector<SheetRow>& rows);

}  // namespace loupe::core::prepare::sheets
