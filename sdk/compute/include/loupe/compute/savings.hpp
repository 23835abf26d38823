// The projected saving of a category finding in milliseconds, with the same model as its
// impact scores (impact.hpp): a quantified member saves its time times its roofline gap at the
// 75 / 87.5 / 100 % targets; an unmodeled (heuristic) member 15 / 30 / 45 % of its time. These
// are projections from measured times, never measurements.
#pragma once

#include <string>

#include "loupe/findings.hpp"
#include "loupe/json_value.hpp"

namespace loupe::compute {

struct SavingsMs {
  double low = 0.0;
  double mid = 0.0;
  double high = 0.0;
  double member_time_ms = 0.0;  // measured kernel time of the members the saving is taken from
};

// From category_findings[i]: its members' time_ms and efficiency_pct, and its estimate_method.
SavingsMs finding_savings_ms(const Json& finding);

// "projected saving 0.123 / 0.245 / 0.280 ms (low / mid / high) of 0.280 ms measured".
std::string savings_sentence(const SavingsMs& savings);

// Default mode: writes estimated_savings_ms_low / _mid / _high (rounded to 3 places) into every
// category_findings[] entry of the metrics.
void add_savings_to_findings(Json& metrics);

// Appends "; <savings_sentence>" to the impact text of each card built by
// build_compute_findings (cards in category_findings order). A finding's
// estimated_savings_ms_low / _mid / _high, when present (a plugin may refine them), are quoted;
// otherwise the saving is computed with finding_savings_ms.
void append_savings_to_cards(findings::Document& doc, const Json& metrics);

}  // namespace loupe::compute
