// The structured findings document of the fusion analyzer (spec §4), rendered by the host's
// common renderer as system_findings/kernel_fusion_findings.md.
#pragma once

#include <string>
#include <vector>

#include "candidate.hpp"
#include "estimate.hpp"
#include "loupe/findings.hpp"
#include "metrics.hpp"
#include "selection.hpp"

namespace loupe::fusion {

inline constexpr const char* kFindingsTitle = "Kernel Fusion Analysis Summary (Experimental)";

// What the findings need besides the estimates: counts and reasons for the short forms.
struct FindingsContext {
  bool comparative = false;
  bool first_instance_time = true;  // compat: time_ms is first instance x instance_count (Q1)
  double baseline_ms = 0.0;
  std::size_t raw_candidate_count = 0;
  const std::vector<Candidate>* candidates = nullptr;  // filtered
  const std::vector<GateRejection>* gate_rejections = nullptr;
  const std::vector<RejectedEstimate>* rejected = nullptr;  // default mode Decision 1 / Q2
};

findings::Document error_findings(const std::string& message, bool comparative);

// OK with estimates: cards, detail blocks and the Impact Summary. Without estimates (or for
// NO_DATA): the honest short form that says why there is nothing to recommend.
findings::Document build_findings(const std::vector<Estimate>& estimates,
                                  const FindingsContext& context);

// Kernel names and types in the findings tables are cut to this many characters.
inline constexpr std::size_t kCellChars = 60;

}  // namespace loupe::fusion
