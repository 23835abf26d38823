#include "loupe/core/report/run_finding.hpp"

#include "loupe/core/plugin/plugin_registry.hpp"
#include "report_text.hpp"

namespace loupe::core {

namespace {

using report_detail::int_or_zero;
using report_detail::member_of;
using report_detail::number_at;
using report_detail::text_at;

// ---- writing ------------------------------------------------------------------------------

// low/mid/high, or the same three members null when not quantified.
Json levels_json(const std::optional<SavingRange>& s) {
  if (s) return to_json(*s);
  Json j = Json::object();
  j["low"] = nullptr;
  j["mid"] = nullptr;
  j["high"] = nullptr;
  return j;
}

const char* const kContributing = to_string(CategoryRole::Contributing);

Json text_or_null(const std::optional<std::string>& s) { return s ? Json(*s) : Json(); }

Json what_if_json(const StepCheckResult& w) {
  Json j = Json::object();
  j["step_gain_ms"] = w.step_gain_ms;
  j["unresolved_share"] = w.unresolved_share;
  j["limited_saving"] = w.limited_saving;
  j["cumulative_step_gain_ms"] = number_or_null(w.cumulative_step_gain_ms);
  return j;
}

Json owns_json(const OwnedTime& o) {
  Json j = Json::object();
  if (o.idle_ms) {
    j["idle_ms"] = *o.idle_ms;
    return j;
  }
  j["kernel_count"] = static_cast<long long>(o.kernel_count);
  j["kernel_time_ms"] = o.kernel_time_ms;
  Json uids = Json::array();
  for (const auto k : o.kernel_uids) uids.push_back(static_cast<long long>(k));
  j["kernel_uids"] = std::move(uids);
  return j;
}

Json part_json(const MergedPart& p) {
  Json j = Json::object();
  j["id"] = p.id;
  j["category"] = p.category;
  j["category_rank"] = static_cast<long long>(p.category_rank);
  if (p.plugin_version) {
    j["plugin"] = p.plugin.value_or("");
    j["plugin_version"] = *p.plugin_version;
  }
  if (p.contributed) j["role"] = kContributing;
  j["title"] = p.title;
  j["evidence"] = p.evidence ? Json(findings::to_string(*p.evidence)) : Json();
  j["stated_saving_ms"] = levels_json(p.stated_saving_ms);
  return j;
}

Json sources_json(const RunFinding& f) {
  Json sources = Json::object();
  sources["files"] = string_array(f.source_files);
  if (f.scope == FindingScope::Run) sources["rows"] = string_array(f.source_rows);
  return sources;
}

Json run_finding_json(const RunFinding& f) {
  Json j = Json::object();
  j["id"] = f.id;
  j["category"] = f.category;
  j["tier"] = f.tier;
  j["plugin"] = f.plugin;
  if (f.plugin_version) j["plugin_version"] = *f.plugin_version;
  if (f.contributed) j["role"] = kContributing;
  j["priority"] = f.priority > 0 ? Json(static_cast<long long>(f.priority)) : Json();
  j["category_rank"] = static_cast<long long>(f.category_rank);
  j["title"] = f.title;
  j["library"] = text_or_null(f.library);
  j["operations"] = string_array(f.operations);
  j["bound_type"] = text_or_null(f.bound_type);
  j["estimate_method"] = text_or_null(f.estimate_method);
  j["insight"] = f.insight;
  j["action"] = f.action;
  j["sources"] = sources_json(f);
  j["evidence"] = f.evidence ? Json(findings::to_string(*f.evidence)) : Json();
  j["saving_ms"] = levels_json(f.saving_ms);
  j["stated_saving_ms"] = levels_json(f.stated_saving_ms);
  j["saving_percent_of_e2e"] = levels_json(f.saving_percent_of_e2e);
  j["ledger"] = f.ledger;
  j["what_if"] = f.what_if ? what_if_json(*f.what_if) : Json();
  j["kernels"] = string_array(f.kernels);
  j["measured_time_ms"] = number_or_null(f.measured_time_ms);
  j["owns"] = f.owns ? owns_json(*f.owns) : Json();
  Json parts = Json::array();
  for (const auto& p : f.parts) parts.push_back(part_json(p));
  j["parts"] = std::move(parts);
  return j;
}

Json rank_set_finding_json(const RunFinding& f) {
  Json j = Json::object();
  j["id"] = f.id;
  j["scope"] = f.scope == FindingScope::CrossRank ? "cross_rank" : "per_rank";
  j["category"] = f.category;
  j["priority"] = static_cast<long long>(f.priority);
  j["title"] = f.title;
  if (f.ranks) {
    Json ranks = Json::array();
    for (const int r : *f.ranks) ranks.push_back(Json(static_cast<long long>(r)));
    j["ranks"] = std::move(ranks);
  } else {
    j["ranks"] = nullptr;
  }
  if (f.representative_rank) {
    j["representative_rank"] = static_cast<long long>(*f.representative_rank);
  }
  j["saving_ms"] = levels_json(f.saving_ms);
  if (f.saving_ms_range) {
    Json range = Json::object();
    range["min"] = f.saving_ms_range->first;
    range["max"] = f.saving_ms_range->second;
    j["saving_ms_range"] = std::move(range);
  } else {
    j["saving_ms_range"] = nullptr;
  }
  j["insight"] = f.insight;
  j["action"] = f.action;
  j["sources"] = sources_json(f);
  j["evidence"] = f.evidence ? Json(findings::to_string(*f.evidence)) : Json();
  return j;
}

// ---- reading ------------------------------------------------------------------------------

std::optional<SavingRange> levels(const Json& finding, std::string_view key) {
  const Json& ms = member_of(finding, key);
  const auto mid = number_at(ms, "mid");
  if (!mid) return std::nullopt;
  return SavingRange{number_at(ms, "low").value_or(*mid), *mid,
                     number_at(ms, "high").value_or(*mid)};
}

std::optional<std::string> optional_text(const Json& object, std::string_view key) {
  const Json& v = member_of(object, key);
  return v.is_string() ? std::optional<std::string>(v.as_string()) : std::nullopt;
}

std::vector<std::string> read_strings(const Json& list) {
  std::vector<std::string> out;
  if (!list.is_array()) return out;
  for (const Json& v : list.as_array()) {
    if (v.is_string()) out.push_back(v.as_string());
  }
  return out;
}

std::optional<StepCheckResult> read_what_if(const Json& w) {
  const auto gain = number_at(w, "step_gain_ms");
  if (!gain) return std::nullopt;
  StepCheckResult out;
  out.step_gain_ms = *gain;
  out.unresolved_share = number_at(w, "unresolved_share").value_or(0.0);
  const Json& limited = member_of(w, "limited_saving");
  out.limited_saving = limited.is_bool() && limited.as_bool();
  out.cumulative_step_gain_ms = number_at(w, "cumulative_step_gain_ms");
  return out;
}

std::optional<OwnedTime> read_owns(const Json& o) {
  if (!o.is_object()) return std::nullopt;
  OwnedTime out;
  out.idle_ms = number_at(o, "idle_ms");
  out.kernel_count =
      static_cast<std::size_t>(std::max<std::int64_t>(0, int_or_zero(o, "kernel_count")));
  out.kernel_time_ms = number_at(o, "kernel_time_ms").value_or(0.0);
  const Json& uids = member_of(o, "kernel_uids");
  if (uids.is_array()) {
    for (const Json& u : uids.as_array()) {
      if (u.is_int()) out.kernel_uids.push_back(u.as_int());
    }
  }
  return out;
}

MergedPart read_part(const Json& p) {
  MergedPart out;
  out.id = text_at(p, "id");
  out.category = text_at(p, "category");
  out.category_rank = int_or_zero(p, "category_rank");
  out.plugin = optional_text(p, "plugin");
  out.plugin_version = optional_text(p, "plugin_version");
  out.contributed = text_at(p, "role") == kContributing;
  out.title = text_at(p, "title");
  out.evidence = findings::evidence_from_string(text_at(p, "evidence"));
  out.stated_saving_ms = levels(p, "stated_saving_ms");
  return out;
}

FindingScope scope_of(const Json& f) {
  const std::string scope = text_at(f, "scope");
  if (scope == "cross_rank") return FindingScope::CrossRank;
  if (scope == "per_rank") return FindingScope::PerRank;
  return FindingScope::Run;
}

}  // namespace

Json to_json(const SavingRange& s) {
  Json j = Json::object();
  j["low"] = s.low;
  j["mid"] = s.mid;
  j["high"] = s.high;
  return j;
}

Json to_json(const RunFinding& f) {
  return f.scope == FindingScope::Run ? run_finding_json(f) : rank_set_finding_json(f);
}

RunFinding read_run_finding(const Json& f) {
  RunFinding out;
  out.id = text_at(f, "id");
  out.scope = scope_of(f);
  out.priority = int_or_zero(f, "priority");
  out.category = text_at(f, "category");
  out.title = text_at(f, "title");
  out.insight = text_at(f, "insight");
  out.action = text_at(f, "action");
  const Json& sources = member_of(f, "sources");
  out.source_files = read_strings(member_of(sources, "files"));
  out.source_rows = read_strings(member_of(sources, "rows"));
  out.evidence = findings::evidence_from_string(text_at(f, "evidence"));
  out.saving_ms = levels(f, "saving_ms");
  out.tier = text_at(f, "tier");
  out.plugin = text_at(f, "plugin");
  out.plugin_version = optional_text(f, "plugin_version");
  out.contributed = text_at(f, "role") == kContributing;
  out.category_rank = int_or_zero(f, "category_rank");
  out.library = optional_text(f, "library");
  out.operations = read_strings(member_of(f, "operations"));
  out.bound_type = optional_text(f, "bound_type");
  out.estimate_method = optional_text(f, "estimate_method");
  out.stated_saving_ms = levels(f, "stated_saving_ms");
  out.saving_percent_of_e2e = levels(f, "saving_percent_of_e2e");
  out.ledger = text_at(f, "ledger");
  out.what_if = read_what_if(member_of(f, "what_if"));
  out.kernels = read_strings(member_of(f, "kernels"));
  out.measured_time_ms = number_at(f, "measured_time_ms");
  out.owns = read_owns(member_of(f, "owns"));
  const Json& parts = member_of(f, "parts");
  if (parts.is_array()) {
    for (const Json& p : parts.as_array()) {
      if (p.is_object()) out.parts.push_back(read_part(p));
    }
  }
  if (const Json& ranks = member_of(f, "ranks"); ranks.is_array()) {
    out.ranks.emplace();
    for (const Json& r : ranks.as_array()) {
      if (r.is_int()) out.ranks->push_back(static_cast<int>(r.as_int()));
    }
  }
  if (const Json& rep = member_of(f, "representative_rank"); rep.is_int()) {
    out.representative_rank = static_cast<int>(rep.as_int());
  }
  const Json& range = member_of(f, "saving_ms_range");
  if (const auto lo = number_at(range, "min"), hi = number_at(range, "max"); lo && hi) {
    out.saving_ms_range = std::make_pair(*lo, *hi);
  }
  return out;
}

RunFindings read_run_findings(const Json& document) {
  RunFindings out;
  const Json& findings = member_of(document, "findings");
  if (findings.is_array()) {
    for (const Json& f : findings.as_array()) {
      if (f.is_object()) out.findings.push_back(read_run_finding(f));
    }
  }
  const Json& run = member_of(document, "run");
  out.total_time_ms = number_at(run, "total_time_ms");
  out.idle_time_percent = number_at(run, "idle_time_percent");
  out.exposed_comm_time_percent = number_at(run, "exposed_comm_time_percent");
  const Json& ledger = member_of(document, "ledger");
  out.combined_step_gain_ms = number_at(ledger, "combined_step_gain_ms");
  out.combined_saving_sum_ms = number_at(ledger, "combined_saving_sum_ms");
  out.step_checked = int_or_zero(ledger, "step_checked");
  const Json& capture = member_of(document, "capture_findings");
  out.capture_findings = capture.is_array() ? capture.size() : 0;
  const Json& coverage = member_of(document, "coverage");
  const Json& ops = member_of(coverage, "ops");
  out.unmodeled_ops = ops.is_array() ? ops.size() : 0;
  out.unmodeled_time_ms = number_at(coverage, "unmodeled_time_ms");
  return out;
}

}  // namespace loupe::core
