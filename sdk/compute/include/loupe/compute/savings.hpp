// Expected savings in milliseconds of one category finding (default mode): the roofline gap of
// each quantified member applied to its measured kernel time at the three targets of the impact
// estimates (75 / 87.5 / 100 % of the gap), or the heuristic shares (15 / 30 / 45 %) of an
// unmodeled member's time. In comparative scope the gap is the trace-2 time ratio, so the high
// end is the measured Trace 1 - Trace 2 difference.
#pragma once

#include <string>

#include "loupe/findings.hpp"
#include "loupe/json_value.hpp"

namespace loupe::compute {

struct SavingsMs {
  double low = 0.0;
  double mid = 0.0;
  double high = 0.0;
  double measured_ms = 0.0;  // the members' summed measured kernel time
};

SavingsMs finding_savings(const Json& finding);

// Adds time_ms, estimated_savings_ms_low, estimated_savings_ms and estimated_savings_ms_high
// (3 decimals) to every category_findings[] entry of an OK metrics document.
void add_savings_to_findings(Json& metrics);

// "estimated saving 1.234 ms (low 1.058 ms, high 1.410 ms) of 3.672 ms measured", from the
// fields add_savings_to_findings wrote; empty when they are absent.
std::string savings_sentence(const Json& finding);

// Appends "; <savings_sentence>" to the impact text of each card built by build_compute_findings
// (cards follow category_findings[] one to one); a plugin that refined a finding's
// estimated_savings_ms* fields before calling it has its own numbers quoted.
void append_savings_to_cards(findings::Document& doc, const Json& metrics);
// The same for one card and its category_findings[] entry; in default mode (the saving fields
// present) a card without a model also gets an action the user can take.
void append_savings_to_card(findings::Recommendation& card, const Json& finding);

}  // namespace loupe::compute
