#include "loupe/compute/savings.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "loupe/compute/impact.hpp"
#include "loupe/python_format.hpp"

namespace loupe::compute {

namespace {

double number_of(const Json& object, std::string_view key) {
  const Json* v = object.is_object() ? object.find(key) : nullptr;
  return v != nullptr && v->is_number() ? v->as_double() : std::nan("");
}

std::string fixed3(double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.3f", v);
  return buf;
}

}  // namespace

SavingsMs finding_savings_ms(const Json& finding) {
  SavingsMs out;
  const Json* method = finding.is_object() ? finding.find("estimate_method") : nullptr;
  const bool heuristic =
      method != nullptr && method->is_string() && method->as_string() == "heuristic";
  const Json* members = finding.is_object() ? finding.find("members") : nullptr;
  if (members == nullptr || !members->is_array()) return out;
  for (const auto& m : members->as_array()) {
    const double t = number_of(m, "time_ms");
    if (!(t > 0)) continue;
    out.member_time_ms += t;
    if (heuristic) {
      out.low += kHeuristicLow * t;
      out.mid += kHeuristicMid * t;
      out.high += kHeuristicHigh * t;
      continue;
    }
    const double eff = number_of(m, "efficiency_pct");
    const double gap = std::isnan(eff) ? 0.0 : std::max(0.0, 1 - eff / 100);
    out.low += kTargetLow / 100 * gap * t;
    out.mid += kTargetMid / 100 * gap * t;
    out.high += kTargetHigh / 100 * gap * t;
  }
  return out;
}

std::string savings_sentence(const SavingsMs& s) {
  return "projected saving " + fixed3(s.low) + " / " + fixed3(s.mid) + " / " + fixed3(s.high) +
         " ms (low / mid / high) of " + fixed3(s.member_time_ms) + " ms measured";
}

void add_savings_to_findings(Json& metrics) {
  const Json* present = metrics.find("category_findings");
  if (present == nullptr || !present->is_array()) return;
  for (auto& f : metrics["category_findings"].as_array()) {
    const SavingsMs s = finding_savings_ms(f);
    f["estimated_savings_ms_low"] = py::round_half_even(s.low, 3);
    f["estimated_savings_ms_mid"] = py::round_half_even(s.mid, 3);
    f["estimated_savings_ms_high"] = py::round_half_even(s.high, 3);
  }
}

void append_savings_to_cards(findings::Document& doc, const Json& metrics) {
  const Json* findings = metrics.is_object() ? metrics.find("category_findings") : nullptr;
  if (findings == nullptr || !findings->is_array()) return;
  for (size_t i = 0; i < doc.recommendations.size() && i < findings->size(); ++i) {
    auto& impact = doc.recommendations[i].impact;
    if (!impact) continue;
    const Json& f = findings->as_array()[i];
    SavingsMs s = finding_savings_ms(f);
    const double low = number_of(f, "estimated_savings_ms_low");
    const double mid = number_of(f, "estimated_savings_ms_mid");
    const double high = number_of(f, "estimated_savings_ms_high");
    if (!std::isnan(low) && !std::isnan(mid) && !std::isnan(high)) {
      s.low = low;
      s.mid = mid;
      s.high = high;
    }
    impact->text += "; " + savings_sentence(s);
  }
}

}  // namespace loupe::compute
