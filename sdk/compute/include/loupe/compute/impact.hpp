// Impact estimates per operation and their grouping into ranked category findings
// (TraceLens compute_impact_estimates / build_category_findings).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "loupe/json_value.hpp"

namespace loupe::compute {

inline constexpr double kTargetHigh = 100.0;
inline constexpr double kTargetMid = 87.5;
inline constexpr double kTargetLow = 75.0;
inline constexpr double kMinOpImpact = 0.01;
inline constexpr double kHeuristicLow = 0.15;
inline constexpr double kHeuristicMid = 0.30;
inline constexpr double kHeuristicHigh = 0.45;
inline constexpr double kMinPItemImpactScore = 0.5;

// What an estimate needs to know about one operation (in operations[] order).
struct OpImpactInput {
  std::string name;
  double time_ms = 0.0;                    // the rounded time_ms (NaN allowed)
  std::optional<double> percent_of_total;  // null when the E2E time is unknown
  std::optional<double> efficiency_percent;
  bool is_anomaly = false;
  std::optional<std::string> bound_type;
  std::optional<std::string> library;
  bool fusion_flagged = false;
  // Default mode: the ex_UID of the op's ops-table row, copied to its impact estimate so the
  // host's time ledger knows which GPU ops the estimate is about (absent in compat mode).
  std::optional<std::int64_t> ex_uid;
};

// impact_estimates[] sorted by impact_score (descending, stable). baseline_ms = E2E GPU time.
Json compute_impact_estimates(const std::vector<OpImpactInput>& ops, const std::string& category,
                              double baseline_ms, bool comparative);

// TraceLens's efficiency bucket: unknown, 0-30, 30-60, 60-100.
std::string efficiency_bucket(std::optional<double> efficiency_percent);

// category_findings[] from the estimates, gated by kMinPItemImpactScore and ranked.
Json build_category_findings(const Json& estimates, bool comparative);

}  // namespace loupe::compute
