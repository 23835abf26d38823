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

// Why `doc` cannot be compared, or empty: it must be a loupe.run_findings/2 document whose
// findings' id, category and title (what the diff compares and prints) are valid UTF-8 when they
// are strings, and whose mid saving is a finite number or null. The reason names the value
// (`findings[3].title: byte 0xff at offset 5 is not valid UTF-8`).
std::string findings_diff_input_problem(const Json& doc);

// Both documents must be accepted by findings_diff_input_problem; throws std::invalid_argument
// naming which is not and why. A finding grew when its mid saving rose by more than `grow_percent`
// % of its old value and by at least 0.001 ms.
FindingsDiff diff_findings(const Json& old_doc, const Json& new_doc, double grow_percent);

Json findings_diff_json(const FindingsDiff& diff);

}  // namespace loupe::core
