#include "loupe/compute/impact.hpp"

#include <algorithm>
#include <cmath>

#include "loupe/compute/numeric.hpp"
#include "loupe/python_format.hpp"

namespace loupe::compute {

namespace {

Json optional_string(const std::optional<std::string>& s) { return s ? Json(*s) : Json(); }

double number_of(const Json& object, std::string_view key) {
  const Json* v = object.find(key);
  return v != nullptr && v->is_number() ? v->as_double() : std::nan("");
}

// Sorts an array of objects by a numeric key, descending, like Python's stable sort.
Json sorted_by_impact(const Json& items) {
  const auto& list = items.as_array();
  const auto order = python_sort_order(
      list.size(),
      [&](size_t a, size_t b) {
        return number_of(list[a], "impact_score") < number_of(list[b], "impact_score");
      },
      true);
  Json out = Json::array();
  for (const size_t i : order) out.push_back(list[i]);
  return out;
}

}  // namespace

Json compute_impact_estimates(const std::vector<OpImpactInput>& ops, const std::string& category,
                              double baseline_ms, bool comparative) {
  const bool baseline_ok = baseline_ms > 0;
  Json estimates = Json::array();
  for (const auto& op : ops) {
    if (op.fusion_flagged) continue;
    if (op.time_ms <= 0) continue;  // NaN is not skipped (TraceLens quirk)
    if (op.efficiency_percent && !op.is_anomaly && baseline_ok) {
      const double eff = *op.efficiency_percent;
      const double gap_high = std::max(0.0, 1 - eff / 100.0);
      const double gap_low = (kTargetLow / 100.0) * gap_high;
      const double gap_mid = (kTargetMid / 100.0) * gap_high;
      const double hi = gap_high * op.time_ms / baseline_ms * 100;
      const double lo = gap_low * op.time_ms / baseline_ms * 100;
      const double mid = gap_mid * op.time_ms / baseline_ms * 100;
      if (hi < kMinOpImpact) continue;
      Json e = Json::object();
      e["operation"] = op.name;
      e["category"] = category;
      e["type"] = "kernel_tuning";
      e["estimate_method"] = "quantified";
      e["impact_score"] = py::round_half_even(mid, 2);
      e["impact_score_low"] = py::round_half_even(lo, 2);
      e["impact_score_high"] = py::round_half_even(hi, 2);
      e["efficiency_pct"] = py::round_half_even(eff, 2);
      e["bound_type"] = optional_string(op.bound_type);
      e["library"] = optional_string(op.library);
      e["time_ms"] = py::round_half_even(op.time_ms, 3);
      if (op.ex_uid) e["ex_uid"] = static_cast<long long>(*op.ex_uid);
      estimates.push_back(std::move(e));
      continue;
    }
    if (comparative) continue;
    if (!op.percent_of_total || *op.percent_of_total <= 0) continue;
    const double pct = *op.percent_of_total;
    Json e = Json::object();
    e["operation"] = op.name;
    e["category"] = category;
    e["type"] = "unmodeled_significant";
    e["estimate_method"] = "heuristic";
    e["impact_score"] = py::round_half_even(pct * kHeuristicMid, 2);
    e["impact_score_low"] = py::round_half_even(pct * kHeuristicLow, 2);
    e["impact_score_high"] = py::round_half_even(pct * kHeuristicHigh, 2);
    e["efficiency_pct"] = nullptr;
    e["bound_type"] = nullptr;
    e["library"] = optional_string(op.library);
    e["time_ms"] = py::round_half_even(op.time_ms, 3);
    e["percent_of_total"] = pct;
    if (op.ex_uid) e["ex_uid"] = static_cast<long long>(*op.ex_uid);
    estimates.push_back(std::move(e));
  }
  return sorted_by_impact(estimates);
}

std::string efficiency_bucket(std::optional<double> efficiency_percent) {
  if (!efficiency_percent) return "unknown";
  if (*efficiency_percent < 30) return "0-30";
  if (*efficiency_percent < 60) return "30-60";
  return "60-100";
}

namespace {

struct Group {
  std::string key;
  std::string bound_type;
  std::string library;
  std::string bucket;
  double mid = 0.0;
  double low = 0.0;
  double high = 0.0;
  double pct = 0.0;
  bool heuristic = false;
  Json members = Json::array();
};

std::string string_or(const Json* v, const std::string& fallback) {
  return v != nullptr && v->is_string() ? v->as_string() : fallback;
}

Group& group_for(std::vector<Group>& groups, const std::string& key) {
  for (auto& g : groups) {
    if (g.key == key) return g;
  }
  groups.push_back(Group{});
  groups.back().key = key;
  return groups.back();
}

}  // namespace

Json build_category_findings(const Json& estimates, bool comparative) {
  std::vector<Group> quantified;
  std::vector<Group> heuristic;
  for (const auto& e : estimates.as_array()) {
    const bool is_heuristic = string_or(e.find("estimate_method"), "") == "heuristic";
    if (!is_heuristic) {
      const std::string bound = string_or(e.find("bound_type"), "unknown");
      const std::string library = string_or(e.find("library"), "Unknown");
      const Json* eff = e.find("efficiency_pct");
      const std::string bucket =
          comparative ? "all"
                      : efficiency_bucket(eff != nullptr && eff->is_number()
                                              ? std::optional<double>(eff->as_double())
                                              : std::nullopt);
      Group& g = group_for(quantified, bound + "\x1f" + library + "\x1f" + bucket);
      g.bound_type = bound;
      g.library = library;
      g.bucket = bucket;
      g.mid += number_of(e, "impact_score");
      g.low += number_of(e, "impact_score_low");
      g.high += number_of(e, "impact_score_high");
      g.members.push_back(e);
    } else {
      Group& g = group_for(heuristic, string_or(e.find("operation"), ""));
      g.heuristic = true;
      g.mid += number_of(e, "impact_score");
      g.low += number_of(e, "impact_score_low");
      g.high += number_of(e, "impact_score_high");
      g.pct += number_of(e, "percent_of_total");
      if (g.library.empty()) g.library = string_or(e.find("library"), "");
      g.members.push_back(e);
    }
  }

  Json findings = Json::array();
  for (auto* groups : {&quantified, &heuristic}) {
    for (auto& g : *groups) {
      if (g.mid < kMinPItemImpactScore) continue;
      Json f = Json::object();
      if (g.heuristic) {
        f["bound_type"] = "unmodeled";
        f["library"] = g.library.empty() ? "Unknown" : g.library;
        f["eff_bucket"] = "unknown";
        f["estimate_method"] = "heuristic";
      } else {
        f["bound_type"] = g.bound_type;
        f["library"] = g.library;
        f["eff_bucket"] = g.bucket;
        f["estimate_method"] = "quantified";
      }
      f["impact_score"] = py::round_half_even(g.mid, 2);
      f["impact_score_low"] = py::round_half_even(g.low, 2);
      f["impact_score_high"] = py::round_half_even(g.high, 2);
      if (g.heuristic) f["percent_of_total"] = py::round_half_even(g.pct, 2);
      f["member_count"] = static_cast<std::int64_t>(g.members.size());
      f["members"] = sorted_by_impact(g.members);
      findings.push_back(std::move(f));
    }
  }
  Json ranked = sorted_by_impact(findings);
  std::int64_t rank = 1;
  for (auto& f : ranked.as_array()) f["rank"] = rank++;
  return ranked;
}

}  // namespace loupe::compute
