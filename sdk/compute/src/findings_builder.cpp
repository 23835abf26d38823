#include "loupe/compute/findings_builder.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "loupe/python_format.hpp"
#include "loupe/text.hpp"

namespace loupe::compute {

namespace fd = loupe::findings;

namespace {

constexpr const char* kDash = "\xE2\x80\x94";   // U+2014
constexpr const char* kArrow = "\xE2\x86\x92";  // U+2192

const Json kNull;

const Json& member_or_null(const Json& object, std::string_view key) {
  const Json* v = object.find(key);
  return v == nullptr ? kNull : *v;
}

std::string string_or(const Json& v, const std::string& fallback) {
  return v.is_string() ? v.as_string() : fallback;
}

// Equality of two JSON scalars as Python == would see them (1 == 1.0; null == null).
bool same_value(const Json& a, const Json& b) {
  if (a.is_null() || b.is_null()) return a.is_null() && b.is_null();
  if (a.is_number() && b.is_number()) return a.as_double() == b.as_double();
  if (a.is_string() && b.is_string()) return a.as_string() == b.as_string();
  if (a.is_bool() && b.is_bool()) return a.as_bool() == b.as_bool();
  return false;
}

// A cell the renderer and the validator accept: no '|' and no line break; else the fallback.
std::string cell(const std::string& text, const std::string& fallback) {
  if (text.find_first_of("|\n\r") != std::string::npos || text.find("<!--") != std::string::npos ||
      text.find("-->") != std::string::npos) {
    return fallback;
  }
  return text;
}

std::string verbatim_cell(const Json& value, const std::string& fallback) {
  if (!value.is_string() || value.as_string().empty()) return fallback;
  return cell(value.as_string(), fallback);
}

std::string number_cell(const Json& value) {
  return value.is_null() ? std::string(kDash) : jnum(value);
}

std::string capitalized_bound(const std::string& bound) {
  if (bound == "compute") return "Compute-bound";
  if (bound == "memory") return "Memory-bound";
  return "Unclassified";
}

}  // namespace

std::string jnum(const Json& value) {
  if (value.is_null()) return kDash;
  if (value.is_bool()) return value.as_bool() ? "true" : "false";
  if (value.is_int()) return std::to_string(value.as_int());
  if (value.is_double()) return py::float_repr(value.as_double());
  if (value.is_string()) return value.as_string();
  return kDash;
}

std::string fixed2(double value) { return py::fixed(value, 2); }

// ---- FindingContext ---------------------------------------------------------------------
bool FindingContext::heuristic() const {
  return string_or(member_or_null(finding, "estimate_method"), "") == "heuristic";
}
std::string FindingContext::bound_type() const {
  return string_or(member_or_null(finding, "bound_type"), "unknown");
}
std::string FindingContext::library() const {
  return string_or(member_or_null(finding, "library"), "Unknown");
}
long long FindingContext::member_count() const {
  const Json& n = member_or_null(finding, "member_count");
  return n.is_int() ? static_cast<long long>(n.as_int()) : 0;
}

namespace {
std::vector<double> member_values(const Json& finding, std::string_view key) {
  std::vector<double> out;
  const Json& members = member_or_null(finding, "members");
  if (!members.is_array()) return out;
  for (const auto& m : members.as_array()) {
    const Json& v = member_or_null(m, key);
    if (v.is_number()) out.push_back(v.as_double());
  }
  return out;
}
}  // namespace

double FindingContext::min_efficiency() const {
  const auto values = member_values(finding, "efficiency_pct");
  return values.empty() ? std::nan("") : *std::min_element(values.begin(), values.end());
}
double FindingContext::max_efficiency() const {
  const auto values = member_values(finding, "efficiency_pct");
  return values.empty() ? std::nan("") : *std::max_element(values.begin(), values.end());
}
std::string FindingContext::total_time_ms() const {
  double sum = 0.0;
  for (const double v : member_values(finding, "time_ms")) sum += v;
  return jnum(Json(py::round_half_even(sum, 3)));
}
std::string FindingContext::total_e2e_percent() const {
  double sum = 0.0;
  bool any = false;
  for (const Json* op : operations) {
    if (op == nullptr) continue;
    const Json& v = member_or_null(*op, "percent_of_total");
    if (v.is_number() && !std::isnan(v.as_double())) {
      sum += v.as_double();
      any = true;
    }
  }
  return any ? jnum(Json(py::round_half_even(sum, 2))) : std::string(kDash);
}
const Json* FindingContext::category_specific(std::string_view key) const {
  const Json* block = metrics.find("category_specific");
  return block == nullptr ? nullptr : block->find(key);
}

// ---- default prose ------------------------------------------------------------------------
std::string FindingsProse::document_title(const std::string& category) const {
  return "Compute Findings: " + category;
}

std::vector<std::string> FindingsProse::overview(const Json& metrics) const {
  std::vector<std::string> items;
  const Json& pct = member_or_null(metrics, "percent_of_compute");
  items.push_back(
      "Total kernel time: " + jnum(member_or_null(metrics, "total_time_ms")) + " ms (" +
      (pct.is_null() ? std::string("E2E GPU time unknown") : jnum(pct) + "% of E2E GPU time") +
      ")");
  const Json& ops = member_or_null(metrics, "operations");
  items.push_back("Operations: " + jnum(member_or_null(metrics, "operation_count")) +
                  " invocations across " + std::to_string(ops.size()) + " unique signatures");
  return items;
}

std::string FindingsProse::no_data_message() const {
  return "No " + noun() + " operations found in trace.";
}

std::string FindingsProse::title(const FindingContext& f) const {
  if (f.heuristic()) {
    const Json& members = member_or_null(f.finding, "members");
    const std::string op = members.size() > 0
                               ? string_or(member_or_null(members.as_array()[0], "operation"), "")
                               : std::string();
    return "Unmodeled op " + op;
  }
  const std::string bl = capitalized_bound(f.bound_type());
  if (f.comparative) return bl + " " + noun() + "s slower than Trace 2";
  return bl + " " + noun() + "s at " + string_or(member_or_null(f.finding, "eff_bucket"), "") +
         "% of roofline";
}

namespace {
std::string types_suffix(const std::vector<std::string>& types) {
  return types.empty() ? "" : " (" + text::join(types, ", ") + ")";
}
const std::string& first_member_operation(const FindingContext& f) {
  static const std::string kEmpty;
  const Json& members = member_or_null(f.finding, "members");
  if (members.size() == 0) return kEmpty;
  const Json& op = member_or_null(members.as_array()[0], "operation");
  return op.is_string() ? op.as_string() : kEmpty;
}
}  // namespace

std::string FindingsProse::insight(const FindingContext& f) const {
  const std::string n = std::to_string(f.member_count());
  if (f.heuristic()) {
    return first_member_operation(f) + " has no performance model and its " + n +
           " signature(s) take " + jnum(member_or_null(f.finding, "percent_of_total")) +
           "% of E2E GPU time.";
  }
  const std::string types = types_suffix(member_types(f));
  if (f.comparative) {
    double t2 = 0.0;
    bool all = true;
    for (const Json* op : f.operations) {
      const Json& v = op == nullptr ? kNull : member_or_null(*op, "t2_time_ms");
      if (!v.is_number())
        all = false;
      else
        t2 += v.as_double();
    }
    const std::string t2_text = all ? jnum(Json(py::round_half_even(t2, 3))) : kDash;
    return n + " " + noun() + " signature(s)" + types + " take " + f.total_time_ms() +
           " ms in Trace 1 versus " + t2_text + " ms in Trace 2.";
  }
  return n + " " + noun() + " signature(s)" + types + " run " + f.bound_type() + "-bound at " +
         fixed2(f.min_efficiency()) + "-" + fixed2(f.max_efficiency()) + "% of roofline and take " +
         f.total_time_ms() + " ms (" + f.total_e2e_percent() + "% of E2E GPU time).";
}

std::string FindingsProse::action(const FindingContext& f) const {
  if (f.heuristic()) {
    return "Add a performance model for this op so its roofline gap can be measured, then "
           "profile its dominant kernels.";
  }
  const std::string bound = f.bound_type();
  if (bound == "compute") {
    return "Profile the dominant member kernels for tile-size and wave-occupancy tuning.";
  }
  if (bound == "memory")
    return "Optimize the memory access patterns of the dominant member kernels.";
  return "Profile the dominant member kernels to determine whether they are compute- or "
         "memory-limited.";
}

std::string FindingsProse::identification(const FindingContext& f) const {
  const std::string n = std::to_string(f.member_count());
  const std::string cat = string_or(member_or_null(f.metrics, "category"), "");
  std::string text;
  std::string src;
  const std::string idx = std::to_string(f.index);
  if (f.heuristic()) {
    text = first_member_operation(f) +
           " was flagged because it has no performance model and takes " +
           jnum(member_or_null(f.finding, "percent_of_total")) + "% of E2E GPU time.";
    src = "`operations[].percent_of_total`, `operations[].library`, `category_findings[" + idx +
          "].percent_of_total`";
  } else if (f.comparative) {
    text = n + " " + noun() +
           " signature(s) were flagged because Trace 1 spends more kernel time on them than "
           "Trace 2.";
    src = "`operations[].difference_ms`, `operations[].library`, `category_findings[" + idx + "]`";
  } else {
    text = n + " " + noun() + " signature(s) were flagged because they reach only " +
           string_or(member_or_null(f.finding, "eff_bucket"), "") +
           "% of their roofline while taking " + f.total_e2e_percent() + "% of E2E GPU time.";
    src =
        "`operations[].efficiency.efficiency_percent`, `operations[].library`, "
        "`category_findings[" +
        idx + "]`";
  }
  std::set<std::string> libraries;
  const std::vector<std::string>* module_chain = nullptr;
  std::vector<std::string> chain;
  for (const Json* op : f.operations) {
    if (op == nullptr) continue;
    const Json& lib = member_or_null(*op, "library");
    if (lib.is_string()) libraries.insert(lib.as_string());
    const Json& mc = member_or_null(*op, "module_chain");
    if (module_chain == nullptr && mc.is_array() && mc.size() > 0) {
      for (const auto& m : mc.as_array()) chain.push_back(string_or(m, ""));
      module_chain = &chain;
    }
  }
  // Vendor-neutral: the library name itself appears only in the title suffix.
  if (libraries.size() == 1 && *libraries.begin() == f.library()) {
    text += " Their dominant kernels come from the library named in the title.";
  } else if (!libraries.empty()) {
    text += " Their kernels come from " + std::to_string(libraries.size()) +
            " detected kernel libraries.";
  }
  if (module_chain != nullptr) {
    text += " They belong to model layer " + text::join(*module_chain, " > ") + ".";
  }
  for (const auto& extra : identification_extras(f)) text += " " + extra;
  return text + " (source: `" + cat + "_metrics.json` " + kArrow + " " + src + ")";
}

std::string FindingsProse::reasoning(const FindingContext& f) const {
  if (f.heuristic()) {
    return "No performance model covers this op, so its efficiency against the roofline cannot "
           "be computed from the trace. Bottleneck identified " +
           std::string(kDash) + " generate reproducer for kernel team.";
  }
  if (f.comparative) {
    double t1 = 0.0;
    for (const double v : member_values(f.finding, "time_ms")) t1 += v;
    double t2 = 0.0;
    bool all = true;
    for (const Json* op : f.operations) {
      const Json& v = op == nullptr ? kNull : member_or_null(*op, "t2_time_ms");
      if (!v.is_number())
        all = false;
      else
        t2 += v.as_double();
    }
    const auto r3 = [](double v) { return jnum(Json(py::round_half_even(v, 3))); };
    if (all && t2 > 0) {
      const double d = (t1 / t2 - 1) * 100;
      return "Trace 1 is " + jnum(Json(py::round_half_even(std::fabs(d), 1))) + "% " +
             (d >= 0 ? "slower" : "faster") + " than Trace 2 on these operations (" + r3(t1) +
             " ms vs " + r3(t2) + " ms, a gap of " + r3(std::fabs(t1 - t2)) + " ms).";
    }
    return "Trace 1 spends " + r3(t1) +
           " ms on these operations; the Trace 2 time is not available for every member.";
  }
  std::vector<std::string> sentences;
  const std::string range = fixed2(f.min_efficiency()) + "-" + fixed2(f.max_efficiency());
  const Json* first_eff = nullptr;
  for (const Json* op : f.operations) {
    if (op != nullptr) {
      first_eff = op->find("efficiency");
      break;
    }
  }
  const Json& eff = first_eff == nullptr ? kNull : *first_eff;
  const std::string bound = f.bound_type();
  if (bound == "compute") {
    sentences.push_back("These kernels deliver " + range + "% of the " +
                        jnum(member_or_null(eff, "resolved_peak_maf")) +
                        " TFLOPS compute roofline.");
  } else if (bound == "memory") {
    sentences.push_back("These kernels deliver " + range + "% of the " +
                        jnum(member_or_null(eff, "resolved_peak_hbm_bw")) +
                        " TB/s memory roofline.");
  } else {
    sentences.push_back("These kernels reach " + range + "% of their roofline.");
  }
  for (auto& s : expectation_sentences(f)) sentences.push_back(std::move(s));
  sentences.push_back("Kernel running slower than expected " + std::string(kDash) +
                      " profile occupancy with hardware counters.");
  for (auto& s : reasoning_extras(f)) sentences.push_back(std::move(s));
  return text::join(sentences, " ");
}

std::string FindingsProse::resolution(const FindingContext& f) const {
  if (f.heuristic()) {
    return "A performance model turns this time share into a measurable roofline gap, which "
           "decides whether kernel tuning can recover time.";
  }
  const std::string bound = f.bound_type();
  if (bound == "memory") {
    return "Better-coalesced access moves the same bytes with fewer memory transactions, which "
           "shortens memory-bound kernels.";
  }
  if (bound == "compute") {
    return "Tile shapes matched to the kernel's GEMM dimensions raise data reuse and keep more "
           "waves in flight, so the fixed FLOP count completes sooner.";
  }
  return "Bottleneck identified " + std::string(kDash) + " generate reproducer for kernel team.";
}

// ---- document ---------------------------------------------------------------------------
namespace {

// Spec join: first unused operation with the same name, time, library (and efficiency for
// quantified members); else the first unused one with the same name.
std::vector<std::vector<const Json*>> join_members(const Json& metrics) {
  std::vector<std::vector<const Json*>> out;
  const Json& ops = member_or_null(metrics, "operations");
  const Json& findings = member_or_null(metrics, "category_findings");
  if (!findings.is_array()) return out;
  const size_t op_count = ops.is_array() ? ops.size() : 0;
  std::vector<bool> used(op_count, false);
  for (const auto& f : findings.as_array()) {
    std::vector<const Json*> joined;
    const Json& members = member_or_null(f, "members");
    if (members.is_array()) {
      for (const auto& m : members.as_array()) {
        const bool heuristic = string_or(member_or_null(m, "estimate_method"), "") == "heuristic";
        const Json& name = member_or_null(m, "operation");
        size_t pick = op_count;
        for (size_t j = 0; j < op_count && pick == op_count; ++j) {
          const Json& op = ops.as_array()[j];
          if (used[j] || !same_value(member_or_null(op, "name"), name)) continue;
          if (!same_value(member_or_null(op, "time_ms"), member_or_null(m, "time_ms"))) continue;
          if (!same_value(member_or_null(op, "library"), member_or_null(m, "library"))) continue;
          if (!heuristic &&
              !same_value(member_or_null(member_or_null(op, "efficiency"), "efficiency_percent"),
                          member_or_null(m, "efficiency_pct"))) {
            continue;
          }
          pick = j;
        }
        for (size_t j = 0; j < op_count && pick == op_count; ++j) {
          if (!used[j] && same_value(member_or_null(ops.as_array()[j], "name"), name)) pick = j;
        }
        if (pick < op_count) {
          used[pick] = true;
          joined.push_back(&ops.as_array()[pick]);
        } else {
          joined.push_back(nullptr);
        }
      }
    }
    out.push_back(std::move(joined));
  }
  return out;
}

std::string bound_cell(const Json& bound, bool heuristic) {
  if (heuristic || !bound.is_string()) return kDash;
  if (bound.as_string() == "compute") return "compute-bound";
  if (bound.as_string() == "memory") return "memory-bound";
  return kDash;
}

std::vector<std::string> standalone_row(const Json& op, bool heuristic) {
  const Json& eff = member_or_null(op, "efficiency");
  const Json& pct = member_or_null(eff, "efficiency_percent");
  const Json& bound = member_or_null(eff, "bound_type");
  std::string efficiency = kDash;
  if (!heuristic && pct.is_number() && bound.is_string()) {
    if (bound.as_string() == "compute") {
      efficiency = fixed2(pct.as_double()) + "% of " +
                   jnum(member_or_null(eff, "resolved_peak_maf")) + " TFLOPS";
    } else if (bound.as_string() == "memory") {
      efficiency = fixed2(pct.as_double()) + "% of " +
                   jnum(member_or_null(eff, "resolved_peak_hbm_bw")) + " TB/s";
    }
  }
  return {cell(string_or(member_or_null(op, "name"), ""), ""),
          verbatim_cell(member_or_null(op, "args"), ""),
          verbatim_cell(member_or_null(op, "launcher_path"), ""),
          verbatim_cell(member_or_null(op, "kernel_name_trunc"), kDash),
          number_cell(member_or_null(op, "time_ms")),
          number_cell(member_or_null(op, "percent_of_total")),
          number_cell(member_or_null(op, "count")),
          number_cell(member_or_null(eff, "flops_per_byte")),
          efficiency,
          bound_cell(bound, heuristic)};
}

std::vector<std::string> comparative_row(const Json& op) {
  const Json& eff = member_or_null(op, "efficiency");
  const Json& count2 = member_or_null(op, "count_trace2");
  return {cell(string_or(member_or_null(op, "name"), ""), ""),
          verbatim_cell(member_or_null(op, "args"), ""),
          verbatim_cell(member_or_null(op, "launcher_path"), ""),
          verbatim_cell(member_or_null(op, "kernel_name_trunc"), kDash),
          number_cell(member_or_null(op, "time_ms")),
          number_cell(member_or_null(op, "t2_time_ms")),
          number_cell(member_or_null(op, "count")) + " / " + number_cell(count2),
          number_cell(member_or_null(op, "difference_ms")),
          number_cell(member_or_null(eff, "flops_per_byte")),
          bound_cell(member_or_null(eff, "bound_type"), false)};
}

fd::Table data_table(const FindingContext& f) {
  fd::Table table;
  if (f.comparative) {
    table.columns = {"Operation",         "Args (T1)",         "Kernel Path",   "Kernel Name",
                     "Trace 1 Time (ms)", "Trace 2 Time (ms)", "Count (T1/T2)", "Difference (ms)",
                     "FLOPS/Byte (T1)",   "Bound (T1)"};
  } else {
    table.columns = {"Operation", "Args",  "Kernel Path", "Kernel Name", "Time (ms)",
                     "%E2E",      "Count", "FLOPS/Byte",  "Efficiency",  "Bound"};
  }
  const Json& members = member_or_null(f.finding, "members");
  for (size_t i = 0; i < f.operations.size(); ++i) {
    const Json* op = f.operations[i];
    Json fallback = Json::object();
    if (op == nullptr) {
      fallback["name"] = member_or_null(members.as_array()[i], "operation");
      fallback["time_ms"] = member_or_null(members.as_array()[i], "time_ms");
      op = &fallback;
    }
    table.rows.push_back(f.comparative ? comparative_row(*op) : standalone_row(*op, f.heuristic()));
  }
  return table;
}

}  // namespace

namespace {

// What the host's time ledger reads from a card (docs/findings-schema.md, "Claims"): the
// evidence behind the estimate, its saving in ms (default mode: estimated_savings_ms*), and the
// op groups of its members (default mode: their ex_UID).
void add_ledger_facts(const Json& finding, fd::Recommendation& card) {
  card.evidence = string_or(member_or_null(finding, "estimate_method"), "") == "heuristic"
                      ? fd::Evidence::Heuristic
                      : fd::Evidence::Modeled;
  const Json& low = member_or_null(finding, "estimated_savings_ms_low");
  const Json& mid = member_or_null(finding, "estimated_savings_ms");
  const Json& high = member_or_null(finding, "estimated_savings_ms_high");
  if (low.is_number() && mid.is_number() && high.is_number()) {
    card.saving_ms = fd::SavingMs{low.as_double(), mid.as_double(), high.as_double()};
  }
  const Json& members = member_or_null(finding, "members");
  if (!members.is_array()) return;
  for (const auto& m : members.as_array()) {
    const Json& uid = member_or_null(m, "ex_uid");
    if (uid.is_int()) card.claims.op_groups.push_back(uid.as_int());
  }
}

}  // namespace

fd::Document build_compute_findings(const Json& metrics, const std::string& category,
                                    bool comparative, const FindingsProse& prose) {
  fd::Document doc = fd::new_findings(fd::Style::Compute, category,
                                      comparative ? Scope::Comparative : Scope::Standalone,
                                      prose.document_title(category));
  const std::string status = string_or(member_or_null(metrics, "status"), "OK");
  if (status == "NO_DATA") {
    doc.status = fd::Status::NoData;
    doc.message = prose.no_data_message();
    return doc;
  }

  const Json& findings = member_or_null(metrics, "category_findings");
  std::vector<std::string> overview = prose.overview(metrics);
  if (findings.size() == 0) {
    overview.push_back(
        "No actionable findings: no finding group reached the 0.5% E2E impact threshold.");
  }
  doc.sections.push_back({"Overview", {fd::bullets(overview)}});

  const auto joined = join_members(metrics);
  for (size_t i = 0; i < joined.size(); ++i) {
    const Json& finding = findings.as_array()[i];
    const FindingContext ctx{metrics, finding, i, joined[i], comparative};
    const std::string title = prose.title(ctx);
    const std::string library = ctx.library();

    fd::Recommendation card;
    card.title = title;
    card.library = library;
    card.insight = prose.insight(ctx);
    card.action = prose.action(ctx);
    const Json& mid = member_or_null(finding, "impact_score");
    card.impact = fd::ImpactScores{member_or_null(finding, "impact_score_low"), mid,
                                   member_or_null(finding, "impact_score_high"),
                                   "impact_score: " + jnum(mid)};
    if (ctx.heuristic()) {
      card.warning =
          "No performance model for this op; impact is derived from its E2E GPU-time "
          "share (" +
          jnum(member_or_null(finding, "percent_of_total")) + "%), not a gap projection.";
    }
    add_ledger_facts(finding, card);
    doc.recommendations.push_back(std::move(card));

    fd::Detail detail;
    const Json& rank = member_or_null(finding, "rank");
    detail.rank = rank.is_int() ? static_cast<int>(rank.as_int()) : static_cast<int>(i + 1);
    detail.title = title + (library == "Unknown" ? "" : " (" + library + ")");
    detail.identification = prose.identification(ctx);
    detail.data.push_back(fd::table(data_table(ctx)));
    detail.reasoning = prose.reasoning(ctx);
    detail.resolution = prose.resolution(ctx);
    const Json& low = member_or_null(finding, "impact_score_low");
    const Json& high = member_or_null(finding, "impact_score_high");
    detail.estimate = fd::DetailEstimate{
        low, high, {"Low end impact_score: " + jnum(low), "High end impact_score: " + jnum(high)}};
    doc.details.push_back(std::move(detail));
  }
  return doc;
}

fd::Document build_error_findings(const std::string& category, bool comparative,
                                  const FindingsProse& prose, const std::string& message) {
  return fd::error_document(fd::Style::Compute, category,
                            comparative ? Scope::Comparative : Scope::Standalone,
                            prose.document_title(category), message);
}

}  // namespace loupe::compute
