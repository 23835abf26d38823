// `loupe diff-findings OLD NEW`: what changed between two runs' findings.json, by the findings'
// stable ids (docs/report.md, "Comparing two runs"): findings that appeared, vanished, or whose
// mid saving grew.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "loupe/json_value.hpp"

namespace loupe::core {

struct FindingChange {
  std::string id;
  std::string category;
  std::string title;                    // NEW's title (OLD's for a vanished finding)
  std::optional<double> old_saving_ms;  // mid saving
  std::optional<double> new_saving_ms;
};

struct FindingsDiff {
  std::vector<FindingChange> appeared;  // in NEW's priority order
  std::vector<FindingChange> vanished;  // in OLD's priority order
  std::vector<FindingChange> grew;      // mid saving up by more than the threshold
  std::size_t unchanged = 0;            // in both, not grown
};

// Both documents must be loupe.run_findings/1; throws std::invalid_argument naming which is
// not. A finding grew when its mid saving rose by more than `grow_percent` % of its old value
// and by at least 0.001 ms.
FindingsDiff diff_findings(const Json& old_doc, const Json& new_doc, double grow_percent);

Json findings_diff_json(const FindingsDiff& diff);

}  // namespace loupe::core
