// The grouped table written as coll_analysis.csv (NcclAnalyser.build_df_summary_long):
// one row per (rank, ten metadata fields), aggregated durations, sorted by total duration.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "collective_rows.hpp"

namespace loupe::core::prepare::coll {

// The CSV text; nullopt when no row has all grouping keys present (the table is empty).
std::optional<std::string> summary_csv(const std::vector<CollectiveRow>& rows);

}  // namespace loupe::core::prepare::coll
