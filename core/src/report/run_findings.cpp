#include "loupe/core/report/run_findings.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>

#include "gpu_op_index.hpp"
#include "loupe/core/report/run_finding.hpp"
#include "loupe/core/report/time_ledger.hpp"
#include "loupe/core/util/json_convert.hpp"
#include "loupe/core/util/text_escape.hpp"
#include "loupe/core/version.hpp"
#include "loupe/core/whatif/simulate.hpp"
#include "loupe/layout.hpp"
#include "loupe/python_format.hpp"

namespace loupe::core {

namespace {

const rapidjson::Value* member(const rapidjson::Value* object, const char* key) {
  if (object == nullptr || !object->IsObject()) return nullptr;
  const auto it = object->FindMember(key);
  return it == object->MemberEnd() ? nullptr : &it->value;
}
std::optional<double> number(const rapidjson::Value* v) {
  if (v == nullptr || !v->IsNumber()) return std::nullopt;
  const double d = v->GetDouble();
  if (d != d) return std::nullopt;  // NaN is not a measurement
  return d;
}
std::string text(const rapidjson::Value* v) {
  return v != nullptr && v->IsString() ? std::string(v->GetString(), v->GetStringLength()) : "";
}

// The run's facts from the manifest's gpu_utilization block.
Json run_facts(const Model& model, const AnalyzeReport& report) {
  Json run = Json::object();
  run["loupe_version"] = kLoupeVersion;
  const std::string* input = model.property("input_dir");
  run["input_dir"] = input == nullptr ? "" : *input;
  const std::string* platform = model.property("platform");
  run["platform"] = platform == nullptr ? Json() : Json(*platform);
  run["scope"] = to_string(report.scope);
  run["workload"] = to_string(report.workload);
  const auto* manifest = model.document(layout::kManifest);
  const auto* utilization = member(manifest, "gpu_utilization");
  for (const char* key : {"total_time_ms", "computation_time_percent", "idle_time_percent",
                          "exposed_comm_time_percent", "exposed_memcpy_time_percent"}) {
    run[key] = rounded_or_null(number(member(utilization, key)), 3);
  }
  return run;
}

// 64-bit FNV-1a, printed as 12 hex digits: short, stable, no dependency.
std::string short_hash(const std::string& text) {
  std::uint64_t h = 1469598103934665603ULL;
  for (const unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return {buf, 12};
}

std::string without_digits(const std::string& title) {
  std::string out;
  for (const char c : title) {
    if ((c >= '0' && c <= '9') || c == '.' || c == ',') continue;
    out.push_back(c);
  }
  return out;
}

// One card of one category on its way into findings.json.
struct RankedEntry {
  RunFinding finding;
  ledger::Claim claim;
  bool quantified = false;                // the card states a saving
  bool is_idle = false;                   // the saving is measured idle time (cpu_idle)
  std::optional<double> members_time_ms;  // compute: the members' measured time
};

// A card's stated saving in ms: its own `saving_ms` when sane, else its impact percentages of the
// run's time (plugins that state only percentages, and compat mode).
std::optional<ledger::Saving> stated_saving(const findings::Recommendation& card,
                                            std::optional<double> baseline_ms) {
  if (const auto& s = card.saving_ms;
      s && std::isfinite(s->high) && s->low >= 0 && s->low <= s->mid && s->mid <= s->high) {
    return ledger::Saving{s->low, s->mid, s->high};
  }
  if (!card.impact || !baseline_ms) return std::nullopt;
  const auto percent = [](const Json& v) -> std::optional<double> {
    if (!v.is_number() || v.as_double() != v.as_double()) return std::nullopt;
    return v.as_double();
  };
  const auto low = percent(card.impact->low);
  const auto mid = percent(card.impact->mid);
  const auto high = percent(card.impact->high);
  if (!low || !mid || !high || !std::isfinite(*high)) return std::nullopt;
  ledger::Saving s{*low / 100.0 * *baseline_ms, *mid / 100.0 * *baseline_ms,
                   *high / 100.0 * *baseline_ms};
  s.low = std::max(0.0, s.low);
  s.mid = std::max(s.low, s.mid);
  s.high = std::max(s.mid, s.high);
  return s;
}

findings::Evidence evidence_of(const findings::Recommendation& card, const rapidjson::Value* cf) {
  if (card.evidence) return *card.evidence;
  const std::string method = text(member(cf, "estimate_method"));
  if (method == "quantified") return findings::Evidence::Modeled;
  return findings::Evidence::Heuristic;  // nothing says how the number was obtained
}

// The GPU ops a card claims: its own kernel uids and the GPU ops of its op groups.
std::vector<std::int64_t> claimed_kernels(const findings::Recommendation& card,
                                          const report::GpuOpIndex& ops) {
  std::vector<std::int64_t> out = card.claims.kernels;
  for (const auto g : card.claims.op_groups) {
    const auto group = ops.group(g);
    out.insert(out.end(), group.begin(), group.end());
  }
  return out;
}

// A compute card that has no model behind it: an op's time, not a change to make. Default mode
// lists it under `coverage` instead of ranking it.
bool is_unmodeled(const rapidjson::Value* cf) {
  return text(member(cf, "estimate_method")) == "heuristic" &&
         text(member(cf, "bound_type")) == "unmodeled";
}

struct Coverage {
  Json ops = Json::array();
  double time_ms = 0.0;
};

void add_category(const Model& model, const PluginOutcome& plugin, const CategoryOutcome& c,
                  std::optional<double> baseline_ms, const report::GpuOpIndex& gpu_ops,
                  bool default_mode, std::vector<RankedEntry>& out, Coverage& coverage) {
  const auto& recs = c.findings_document->recommendations;
  const auto* metrics = model.document(c.metrics_path);
  const auto* category_findings = member(metrics, "category_findings");
  const bool compute = plugin.plugin->tier == Tier::Compute;
  std::map<std::string, int> identities_seen;  // cards whose identity repeats get an ordinal
  for (std::size_t i = 0; i < recs.size(); ++i) {
    const findings::Recommendation& rec = recs[i];
    // Compute-tier cards follow category_findings[] one to one (docs/findings-schema.md).
    const rapidjson::Value* cf = nullptr;
    if (compute && category_findings != nullptr && category_findings->IsArray() &&
        i < category_findings->Size()) {
      cf = &(*category_findings)[static_cast<rapidjson::SizeType>(i)];
    }
    std::vector<std::string> names;
    std::optional<double> time_ms;
    if (const auto* members = member(cf, "members"); members != nullptr && members->IsArray()) {
      for (const auto& m : members->GetArray()) {
        const std::string op = text(member(&m, "operation"));
        if (std::find(names.begin(), names.end(), op) == names.end()) names.push_back(op);
        if (const auto t = number(member(&m, "time_ms"))) time_ms = time_ms.value_or(0.0) + *t;
      }
    }
    if (default_mode && is_unmodeled(cf)) {
      for (const auto& name : names) {
        Json entry = Json::object();
        entry["operation"] = name;
        entry["category"] = c.category;
        entry["time_ms"] = rounded_or_null(time_ms, 3);
        coverage.ops.push_back(std::move(entry));
      }
      coverage.time_ms += time_ms.value_or(0.0);
      continue;
    }
    // What identifies the finding apart from its numbers, its GPU and its efficiency bucket:
    // compute tier, the library and the ops it names; other tiers, the title without digits.
    std::string identity;
    if (!names.empty()) {
      std::vector<std::string> sorted = names;
      std::sort(sorted.begin(), sorted.end());
      identity = text(member(cf, "library"));
      for (const auto& n : sorted) identity += "|" + n;
    } else {
      identity = without_digits(rec.title);
    }
    if (const int n = ++identities_seen[identity]; n > 1) identity += "#" + std::to_string(n);
    const bool contributed = c.role == CategoryRole::Contributing;
    // A contributed card is its plugin's: the same ops as the primary's card make another id.
    if (contributed) identity = plugin.plugin->name + "\n" + identity;

    RankedEntry e;
    RunFinding& f = e.finding;
    f.id = finding_id(c.category, identity);
    f.category = c.category;
    f.tier = to_string(plugin.plugin->tier);
    f.plugin = plugin.plugin->name;
    // A dropped-in plugin's card names its version too (a contribution, or a vendor's primary).
    if (contributed || plugin.plugin->origin != SearchOrigin::Bundled) {
      f.plugin_version = plugin.plugin->version;
    }
    f.contributed = contributed;
    f.category_rank = static_cast<std::int64_t>(i + 1);
    f.title = rec.title;
    if (rec.library && !rec.library->empty()) f.library = *rec.library;
    f.operations = names;
    if (cf != nullptr) {
      f.bound_type = text(member(cf, "bound_type"));
      f.estimate_method = text(member(cf, "estimate_method"));
    }
    f.insight = rec.insight;
    f.action = rec.action;
    f.source_files = {c.metrics_path, c.findings_path};
    const std::string ops_csv = "category_data/" + c.category + "_ops.csv";
    if (compute && model.table(ops_csv) != nullptr) f.source_files.push_back(ops_csv);
    f.source_rows = names;

    e.claim.evidence = evidence_of(rec, cf);
    e.claim.kernels = claimed_kernels(rec, gpu_ops);
    if (const auto s = stated_saving(rec, baseline_ms)) {
      e.claim.saving = *s;
      e.quantified = true;
    }
    e.is_idle = c.category == "cpu_idle" && e.claim.evidence == findings::Evidence::Measured;
    e.members_time_ms = time_ms;
    out.push_back(std::move(e));
  }
}

SavingRange rounded(const ledger::Saving& s) {
  return {py::round_half_even(s.low, 3), py::round_half_even(s.mid, 3),
          py::round_half_even(s.high, 3)};
}

// The share of the run's time, from the stored (rounded) ms: the same figure everywhere.
std::optional<SavingRange> percent_of(const std::optional<SavingRange>& ms,
                                      std::optional<double> baseline_ms) {
  if (!ms || !baseline_ms || !(*baseline_ms > 0)) return std::nullopt;
  const auto pct = [&](double v) { return py::round_half_even(v / *baseline_ms * 100.0, 2); };
  return SavingRange{pct(ms->low), pct(ms->mid), pct(ms->high)};
}

// The distinct names of the GPU ops a finding owns, and of the ops that launched them.
void owned_names(const std::vector<std::int64_t>& owned, const report::GpuOpIndex& gpu_ops,
                 std::vector<std::string>& kernels, std::vector<std::string>& ops) {
  std::vector<std::string> k;
  std::vector<std::string> o;
  for (const auto uid : owned) {
    const auto* facts = gpu_ops.find(uid);
    if (facts == nullptr) continue;
    if (std::find(k.begin(), k.end(), facts->name) == k.end()) k.emplace_back(facts->name);
    if (!facts->op_name.empty() && std::find(o.begin(), o.end(), facts->op_name) == o.end()) {
      o.emplace_back(facts->op_name);
    }
  }
  kernels = std::move(k);
  ops = std::move(o);
}

}  // namespace

std::string finding_id(const std::string& category, const std::string& identity) {
  return category + "-" + short_hash(category + "\n" + identity);
}

namespace {

// The step-time check of one finding (docs/what-if.md): its owned GPU ops at their target time
// (their measured time less the finding's mid saving, spread in proportion), replayed.
struct StepCheck {
  double gain_ms = 0.0;
  double unresolved_share = 0.0;
  bool heuristic = false;
  std::vector<whatif::KernelTarget> targets;  // replayed again together with the other findings'
  std::optional<double> cumulative_ms;        // this finding and every checked one ranked above it
};

std::optional<StepCheck> step_check(const whatif::RunGraph& graph, const ledger::Settlement& s,
                                    const report::GpuOpIndex& gpu_ops) {
  if (s.owned.empty() || s.owned_ns <= 0 || !(s.saving.mid > 0)) return std::nullopt;
  const double keep = std::max(0.0, 1.0 - s.saving.mid * 1e6 / static_cast<double>(s.owned_ns));
  std::vector<whatif::KernelTarget> targets;
  targets.reserve(s.owned.size());
  for (const auto uid : s.owned) {
    const auto* facts = gpu_ops.find(uid);
    if (facts == nullptr || uid < 0 || uid > std::numeric_limits<std::uint32_t>::max()) continue;
    targets.push_back({static_cast<std::uint32_t>(uid),
                       static_cast<std::int64_t>(static_cast<double>(facts->dur_ns) * keep)});
  }
  const whatif::StepGain gain = whatif::predict_gain(graph, targets);
  return StepCheck{std::max<double>(0.0, static_cast<double>(gain.total_ns) / 1e6),
                   gain.unresolved_share, gain.heuristic, std::move(targets), std::nullopt};
}

// At most this many findings get a replay each (one linear pass over the run).
constexpr std::size_t kStepChecks = 40;

}  // namespace

Json build_run_findings(const Model& model, const AnalyzeReport& report, Compat compat,
                        const whatif::RunGraph* run_graph) {
  const bool default_mode = compat != Compat::TraceLens;
  Json doc = Json::object();
  doc["schema"] = kRunFindingsSchema;
  doc["run"] = run_facts(model, report);
  const auto baseline =
      number(member(member(model.document(layout::kManifest), "gpu_utilization"), "total_time_ms"));
  const auto gpu_ops = report::GpuOpIndex::from_model(model);
  Json categories = Json::array();
  std::vector<RankedEntry> entries;
  Coverage coverage;
  for (const auto& plugin : report.plugins) {
    for (const auto& c : plugin.categories) {
      Json cj = Json::object();
      cj["category"] = c.category;
      cj["plugin"] = plugin.plugin->name;
      if (c.role == CategoryRole::Contributing) {
        cj["plugin_version"] = plugin.plugin->version;
        cj["role"] = to_string(c.role);
      }
      cj["tier"] = to_string(plugin.plugin->tier);
      cj["status"] = findings::to_string(c.status);
      cj["findings_count"] = static_cast<long long>(c.findings_count);
      if (!c.message.empty()) cj["message"] = c.message;
      categories.push_back(std::move(cj));
      if (c.status == findings::Status::Ok && c.findings_document) {
        add_category(model, plugin, c, baseline, gpu_ops, default_mode, entries, coverage);
      }
    }
  }

  std::vector<ledger::Claim> claims;
  claims.reserve(entries.size());
  for (const auto& e : entries) claims.push_back(e.claim);
  ledger::Ledger settled = ledger::settle(claims, gpu_ops.durations(), baseline.value_or(0));

  // What the step would gain: shortening a kernel the GPU is not waiting on shortens nothing.
  std::map<std::size_t, StepCheck> checks;
  std::optional<double> combined_gain_ms;
  double checked_saving_ms = 0.0;  // the mid savings of the findings replayed together
  if (run_graph != nullptr && default_mode) {
    for (const auto i : settled.ranking) {
      if (checks.size() == kStepChecks) break;
      auto& s = settled.findings[i];
      const auto check = step_check(*run_graph, s, gpu_ops);
      if (!check) continue;
      checks[i] = *check;
      if (check->gain_ms < s.saving.mid) {
        const double factor = s.saving.mid > 0 ? check->gain_ms / s.saving.mid : 0.0;
        s.saving = {s.saving.low * factor, check->gain_ms, s.saving.high * factor};
        s.capped = true;
      }
      // Dependencies the trace does not resolve make the answer a rule of thumb.
      if (check->heuristic) entries[i].claim.evidence = findings::Evidence::Heuristic;
    }
    std::stable_sort(
        settled.ranking.begin(), settled.ranking.end(), [&](std::size_t a, std::size_t b) {
          return ledger::ranks_before(settled.findings[a].saving, entries[a].claim.evidence,
                                      settled.findings[b].saving, entries[b].claim.evidence);
        });
    // The checked findings applied one after the other in rank order: savings that each hit the
    // same floor (a host-bound launch path, a dependency) do not add up, and the running total
    // says by how much. The last total is every checked finding applied at once.
    std::vector<whatif::KernelTarget> applied;
    for (const auto i : settled.ranking) {
      const auto c = checks.find(i);
      if (c == checks.end() || !entries[i].quantified) continue;
      applied.insert(applied.end(), c->second.targets.begin(), c->second.targets.end());
      const whatif::StepGain together = whatif::predict_gain(*run_graph, applied);
      c->second.cumulative_ms = std::max<double>(0.0, static_cast<double>(together.total_ns) / 1e6);
      combined_gain_ms = c->second.cumulative_ms;
      checked_saving_ms += settled.findings[i].saving.mid;
    }
    settled.ranked_total = {};
    for (const auto i : settled.ranking) {
      settled.ranked_total.low += settled.findings[i].saving.low;
      settled.ranked_total.mid += settled.findings[i].saving.mid;
      settled.ranked_total.high += settled.findings[i].saving.high;
    }
  }

  // Ranked findings (quantified first, in the ledger's order), then the unquantified ones in
  // category order; merged findings become parts of their owner.
  std::vector<std::size_t> order;
  for (const auto i : settled.ranking) {
    if (entries[i].quantified) order.push_back(i);
  }
  for (const auto i : settled.ranking) {
    if (!entries[i].quantified) order.push_back(i);
  }
  Json findings = Json::array();
  std::int64_t priority = 0;
  std::size_t merged = 0;
  std::size_t trimmed = 0;
  std::size_t owned_kernels = 0;
  std::int64_t owned_ns = 0;
  for (const auto i : order) {
    RankedEntry& e = entries[i];
    const ledger::Settlement& s = settled.findings[i];
    RunFinding& f = e.finding;
    f.priority = ++priority;
    f.evidence = e.claim.evidence;
    if (e.quantified) {
      f.saving_ms = rounded(s.saving);
      f.stated_saving_ms = rounded(e.claim.saving);
    }
    f.saving_percent_of_e2e = percent_of(f.saving_ms, baseline);
    f.ledger = ledger::to_string(s.disposition);
    if (const auto c = checks.find(i); c != checks.end()) {
      StepCheckResult w;
      w.step_gain_ms = py::round_half_even(c->second.gain_ms, 3);
      w.unresolved_share = py::round_half_even(c->second.unresolved_share, 3);
      w.limited_saving = c->second.gain_ms < e.claim.saving.mid;
      if (c->second.cumulative_ms) {
        w.cumulative_step_gain_ms = py::round_half_even(*c->second.cumulative_ms, 3);
      }
      f.what_if = w;
    }
    if (s.disposition == ledger::Disposition::Trimmed) ++trimmed;
    if (s.claimed_ns > 0) {
      OwnedTime owns;
      owns.kernel_count = s.owned.size();
      owns.kernel_time_ms = py::round_half_even(static_cast<double>(s.owned_ns) / 1e6, 3);
      owns.kernel_uids = s.owned;
      owned_kernels += s.owned.size();
      owned_ns += s.owned_ns;
      std::vector<std::string> op_names;
      owned_names(s.owned, gpu_ops, f.kernels, op_names);
      if (f.operations.empty()) f.operations = std::move(op_names);
      f.measured_time_ms = owns.kernel_time_ms;
      f.owns = std::move(owns);
    } else if (e.is_idle && e.quantified) {
      OwnedTime owns;
      owns.idle_ms = py::round_half_even(e.claim.saving.high, 3);
      f.measured_time_ms = owns.idle_ms;
      f.owns = std::move(owns);
    } else if (e.members_time_ms) {
      f.measured_time_ms = py::round_half_even(*e.members_time_ms, 3);
    }
    for (const auto p : s.parts) {
      const RankedEntry& part = entries[p];
      MergedPart mp;
      mp.id = part.finding.id;
      mp.category = part.finding.category;
      mp.category_rank = part.finding.category_rank;
      if (part.finding.plugin_version) {
        mp.plugin = part.finding.plugin;
        mp.plugin_version = part.finding.plugin_version;
      }
      mp.contributed = part.finding.contributed;
      mp.title = part.finding.title;
      mp.evidence = part.claim.evidence;
      if (part.quantified) mp.stated_saving_ms = rounded(part.claim.saving);
      f.parts.push_back(std::move(mp));
      ++merged;
    }
    findings.push_back(to_json(f));
  }
  doc["categories"] = std::move(categories);
  Json unhandled = Json::array();
  for (const auto& u : report.unhandled) unhandled.push_back(u);
  doc["unhandled_categories"] = std::move(unhandled);

  Json ledger_json = Json::object();
  ledger_json["run_time_ms"] = rounded_or_null(baseline, 3);
  ledger_json["ranked_saving_ms"] = to_json(rounded(settled.ranked_total));
  ledger_json["owned_kernel_count"] = static_cast<long long>(owned_kernels);
  ledger_json["owned_kernel_time_ms"] = py::round_half_even(static_cast<double>(owned_ns) / 1e6, 3);
  ledger_json["merged_findings"] = static_cast<long long>(merged);
  ledger_json["trimmed_findings"] = static_cast<long long>(trimmed);
  ledger_json["unknown_kernel_claims"] = static_cast<long long>(settled.unknown_kernels);
  ledger_json["kernel_level"] = !gpu_ops.empty();
  ledger_json["step_checked"] = static_cast<long long>(checks.size());
  ledger_json["combined_step_gain_ms"] =
      combined_gain_ms ? Json(py::round_half_even(*combined_gain_ms, 3)) : Json();
  ledger_json["combined_saving_sum_ms"] =
      combined_gain_ms ? Json(py::round_half_even(checked_saving_ms, 3)) : Json();
  doc["ledger"] = std::move(ledger_json);
  if (default_mode) {
    Json cov = Json::object();
    cov["unmodeled_time_ms"] = py::round_half_even(coverage.time_ms, 3);
    cov["unmodeled_percent_of_e2e"] =
        baseline && *baseline > 0 ? Json(py::round_half_even(coverage.time_ms / *baseline * 100, 2))
                                  : Json();
    cov["ops"] = std::move(coverage.ops);
    doc["coverage"] = std::move(cov);
  }
  doc["findings"] = std::move(findings);
  return doc;
}

std::string run_findings_text(const Json& run_findings) {
  return replace_invalid_utf8(dump_python_json(run_findings, 2, false)) + "\n";
}

}  // namespace loupe::core
