// The grouped table written as coll_analysis.csv (NcclAnalyser.build_df_summary_long):
// one row per (rank, ten metadata fields), aggregated durations, sorted by total duration.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "loupe/core/prepare/pandas_csv.hpp"

#include "loupe/core/prepare/coll/collective_rows.hpp"

namespace loupe::core::prepare::coll {

// Columns a caller appends to every summary row, computed from the group's first row (the
// multi-rank report's node columns, docs/multirank.md).
struct ExtraColumns {
  std::vector<std::string> names;
  std::function<std::vector<CsvValue>(const CollectiveRow&)> cells;
};

// The CSV text; nullopt when no row has all grouping keys present (the table is empty). Rows
// are grouped by their rank first, then the ten metadata fields.
std::optional<std::string> summary_csv(const std::vector<CollectiveRow>& rows,
                                       const ExtraColumns& extra = {});

}  // namespace loupe::core::prepare::coll
