#include "sdpa_band_savings.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "loupe/compute/impact.hpp"
#include "loupe/compute/json_fields.hpp"
#include "loupe/python_format.hpp"
#include "sdpa_attention_facts.hpp"

namespace loupe::sdpa {

namespace {

// The operations[] entry of a member: first unused with the same name and time, else the first
// unused with the same name.
const Json* join(const Json& m, const Json& operations, std::vector<bool>& used) {
  const auto& ops = operations.as_array();
  for (const bool exact : {true, false}) {
    for (size_t j = 0; j < ops.size(); ++j) {
      if (used[j] || compute::field_text(ops[j], "name") != compute::field_text(m, "operation"))
        continue;
      if (exact && compute::field_number(ops[j], "time_ms") != compute::field_number(m, "time_ms"))
        continue;
      used[j] = true;
      return &ops[j];
    }
  }
  return nullptr;
}

double gap_to(double eff, double target) { return std::max(0.0, 1 - eff / target); }

}  // namespace

void apply_expected_band_savings(Json& metrics, double e2e_ms) {
  if (compute::field_text(metrics, "status") != "OK" ||
      compute::field_text(metrics, "comparison_scope") != "standalone")
    return;
  const Json& operations = compute::field(metrics, "operations");
  if (!operations.is_array() || metrics.find("category_findings") == nullptr) return;
  std::vector<bool> used(operations.size(), false);
  auto& findings = metrics["category_findings"].as_array();
  for (auto& f : findings) {
    if (compute::field_text(f, "estimate_method") != "quantified") continue;
    double low = 0.0, mid = 0.0, high = 0.0;
    bool band_used = false;
    for (const auto& m : compute::field(f, "members").as_array()) {
      const double t = compute::field_number(m, "time_ms");
      const double eff = compute::field_number(m, "efficiency_pct");
      const Json* op = join(m, operations, used);
      if (!(t > 0) || std::isnan(eff)) continue;
      const AttentionFacts facts = op != nullptr ? attention_facts(*op) : AttentionFacts{};
      const auto n = facts.sequence_length();
      if (op != nullptr && n && facts.type != AttentionType::Paged) {
        const EfficiencyBand band = expected_band(*n);
        low += t * gap_to(eff, band.low);
        mid += t * gap_to(eff, (band.low + band.high) / 2);
        high += t * gap_to(eff, band.high);
        band_used = true;
      } else {
        const double gap = gap_to(eff, 100);
        low += compute::kTargetLow / 100 * gap * t;
        mid += compute::kTargetMid / 100 * gap * t;
        high += gap * t;
      }
    }
    f["estimated_savings_ms_low"] = py::round_half_even(low, 3);
    f["estimated_savings_ms_mid"] = py::round_half_even(mid, 3);
    f["estimated_savings_ms_high"] = py::round_half_even(high, 3);
    f["saving_basis"] = band_used ? "expected_band" : "roofline";
    if (e2e_ms > 0) {
      f["impact_score"] = py::round_half_even(mid / e2e_ms * 100, 2);
      f["impact_score_low"] = py::round_half_even(low / e2e_ms * 100, 2);
      f["impact_score_high"] = py::round_half_even(high / e2e_ms * 100, 2);
    }
  }
  std::stable_sort(findings.begin(), findings.end(), [](const Json& a, const Json& b) {
    return compute::field_number(a, "impact_score") > compute::field_number(b, "impact_score");
  });
  std::int64_t rank = 1;
  for (auto& f : findings) f["rank"] = rank++;
}

}  // namespace loupe::sdpa
