#include "loupe/compute/savings.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "loupe/compute/impact.hpp"
#include "loupe/python_format.hpp"

namespace loupe::compute {

namespace {

double number(const Json& object, std::string_view key) {
  const Json* v = object.is_object() ? object.find(key) : nullptr;
  return v != nullptr && v->is_number() ? v->as_double() : std::nan("");
}

}  // namespace

SavingsMs finding_savings(const Json& finding) {
  SavingsMs s;
  const Json* method = finding.find("estimate_method");
  const bool heuristic =
      method != nullptr && method->is_string() && method->as_string() == "heuristic";
  const Json* members = finding.find("members");
  if (members == nullptr || !members->is_array()) return s;
  for (const auto& m : members->as_array()) {
    const double t = number(m, "time_ms");
    if (!(t > 0)) continue;
    s.measured_ms += t;
    if (heuristic) {
      s.low += kHeuristicLow * t;
      s.mid += kHeuristicMid * t;
      s.high += kHeuristicHigh * t;
      continue;
    }
    const double eff = number(m, "efficiency_pct");
    if (std::isnan(eff)) continue;
    const double gap = std::max(0.0, 1 - eff / 100.0);
    s.low += kTargetLow / 100.0 * gap * t;
    s.mid += kTargetMid / 100.0 * gap * t;
    s.high += gap * t;
  }
  return s;
}

void add_savings_to_findings(Json& metrics) {
  if (!metrics.is_object() || metrics.find("category_findings") == nullptr) return;
  Json& findings = metrics["category_findings"];
  if (!findings.is_array()) return;
  for (auto& f : findings.as_array()) {
    const SavingsMs s = finding_savings(f);
    f["time_ms"] = py::round_half_even(s.measured_ms, 3);
    f["estimated_savings_ms_low"] = py::round_half_even(s.low, 3);
    f["estimated_savings_ms"] = py::round_half_even(s.mid, 3);
    f["estimated_savings_ms_high"] = py::round_half_even(s.high, 3);
  }
}

std::string savings_sentence(const Json& finding) {
  const double mid = number(finding, "estimated_savings_ms");
  if (std::isnan(mid)) return {};
  return "estimated saving " + py::fixed(mid, 3) + " ms (low " +
         py::fixed(number(finding, "estimated_savings_ms_low"), 3) + " ms, high " +
         py::fixed(number(finding, "estimated_savings_ms_high"), 3) + " ms) of " +
         py::fixed(number(finding, "time_ms"), 3) + " ms measured";
}

}  // namespace loupe::compute

namespace loupe::compute {

void append_savings_to_card(findings::Recommendation& card, const Json& finding) {
  const std::string sentence = savings_sentence(finding);
  if (sentence.empty()) return;  // compat mode: TraceLens's text
  if (card.impact) card.impact->text += "; " + sentence;
  // An op without a model: the action is the user's next step, not a note about Loupe.
  const Json* method = finding.find("estimate_method");
  if (method != nullptr && method->is_string() && method->as_string() == "heuristic" &&
      card.action.rfind("Add a performance model", 0) == 0) {
    card.action =
        "Profile this op's dominant kernels (rocprofv3 / Nsight Compute) to see whether they are "
        "memory- or compute-limited before tuning them; no roofline covers this op, so its saving "
        "is a heuristic range.";
  }
}

void append_savings_to_cards(findings::Document& doc, const Json& metrics) {
  const Json* findings = metrics.is_object() ? metrics.find("category_findings") : nullptr;
  if (findings == nullptr || !findings->is_array()) return;
  for (size_t i = 0; i < doc.recommendations.size() && i < findings->size(); ++i) {
    append_savings_to_card(doc.recommendations[i], findings->as_array()[i]);
  }
}

}  // namespace loupe::compute
