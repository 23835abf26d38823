#include "conv_corrections.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "conv_category_specific.hpp"
#include "loupe/compute/findings_builder.hpp"
#include "loupe/compute/impact.hpp"
#include "loupe/compute/numeric.hpp"
#include "loupe/compute/op_fields.hpp"
#include "loupe/python_format.hpp"

namespace loupe::conv {

namespace fd = loupe::findings;

namespace {

constexpr const char* kLibraryKey = "loupe_member_library";  // scratch key while regrouping
constexpr std::size_t kBelowGatesShown = 25;

const Json& member(const Json& object, std::string_view key) {
  static const Json kNull;
  const Json* v = object.is_object() ? object.find(key) : nullptr;
  return v == nullptr ? kNull : *v;
}

double number(const Json& object, std::string_view key) {
  const Json& v = member(object, key);
  return v.is_number() ? v.as_double() : std::nan("");
}

std::string text(const Json& object, std::string_view key) {
  const Json& v = member(object, key);
  return v.is_string() ? v.as_string() : std::string();
}

double round2(double v) { return py::round_half_even(v, 2); }
double round3(double v) { return py::round_half_even(v, 3); }

std::string fixed3(double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.3f", v);
  return buf;
}

void erase_key(Json& object, std::string_view key) {
  auto& members = object.as_object();
  members.erase(
      std::remove_if(members.begin(), members.end(), [&](const auto& m) { return m.first == key; }),
      members.end());
}

// Layout-transform kernel time (ms) of each operations[] entry. operations[] holds the CSV rows
// in kernel-time order (descending, stable; a missing time counts as 0 in the default mode).
std::vector<double> layout_ms_by_operation(const Json& operations,
                                           const compute::CategoryInputs& inputs) {
  std::vector<double> kt(inputs.rows());
  for (size_t r = 0; r < inputs.rows(); ++r) {
    kt[r] = inputs.number(r, compute::kKernelTimeSum);
    if (std::isnan(kt[r])) kt[r] = 0.0;
  }
  std::vector<size_t> rows(inputs.rows());
  std::iota(rows.begin(), rows.end(), size_t{0});
  std::stable_sort(rows.begin(), rows.end(), [&](size_t a, size_t b) { return kt[a] > kt[b]; });
  std::vector<double> out(operations.size(), 0.0);
  for (size_t i = 0; i < out.size() && i < rows.size(); ++i) {
    if (inputs.text(rows[i], "name").value_or("") != text(operations.as_array()[i], "name")) {
      continue;
    }
    const auto kernels =
        compute::parse_kernel_details(inputs.text(rows[i], "kernel_details_summary").value_or(""));
    if (!kernels) continue;
    for (const auto& k : *kernels) {
      if (is_layout_transform_kernel(k.name)) out[i] += k.total_duration_us / 1000;
    }
  }
  return out;
}

bool same_number(const Json& a, const Json& b) {
  if (a.is_number() && b.is_number()) return a.as_double() == b.as_double();
  return a.is_null() && b.is_null();
}

// The operations[] entry of each member, with the compute findings builder's rule: the first
// unused operation with the same name, time, library (and efficiency when quantified), else
// the first unused one with the same name; -1 when none.
std::vector<long> join(const Json& finding, const Json& operations, std::vector<bool>& used) {
  std::vector<long> out;
  const bool heuristic = text(finding, "estimate_method") == "heuristic";
  for (const auto& m : member(finding, "members").as_array()) {
    long pick = -1;
    const auto& ops = operations.as_array();
    for (size_t j = 0; j < ops.size() && pick < 0; ++j) {
      if (used[j] || text(ops[j], "name") != text(m, "operation")) continue;
      if (!same_number(member(ops[j], "time_ms"), member(m, "time_ms"))) continue;
      if (text(ops[j], "library") != text(m, "library")) continue;
      if (!heuristic && !same_number(member(member(ops[j], "efficiency"), "efficiency_percent"),
                                     member(m, "efficiency_pct"))) {
        continue;
      }
      pick = static_cast<long>(j);
    }
    for (size_t j = 0; j < ops.size() && pick < 0; ++j) {
      if (!used[j] && text(ops[j], "name") == text(m, "operation")) pick = static_cast<long>(j);
    }
    if (pick >= 0) used[static_cast<size_t>(pick)] = true;
    out.push_back(pick);
  }
  return out;
}

struct Savings {
  double low = 0.0;
  double mid = 0.0;
  double high = 0.0;
};

// The saving of one member on `base_ms` of its time: the efficiency gap for a quantified
// member, the heuristic shares (15 / 30 / 45 %) for an unmodeled one.
Savings member_savings(const Json& m, bool heuristic, double base_ms) {
  if (heuristic) {
    return {compute::kHeuristicLow * base_ms, compute::kHeuristicMid * base_ms,
            compute::kHeuristicHigh * base_ms};
  }
  const double eff = number(m, "efficiency_pct");
  const double gap = std::isnan(eff) ? 0.0 : std::max(0.0, 1 - eff / 100);
  return {compute::kTargetLow / 100 * gap * base_ms, compute::kTargetMid / 100 * gap * base_ms,
          gap * base_ms};
}

void set_impact(Json& object, const Savings& s, double e2e_ms) {
  if (!(e2e_ms > 0)) return;
  object["impact_score"] = round2(s.mid / e2e_ms * 100);
  object["impact_score_low"] = round2(s.low / e2e_ms * 100);
  object["impact_score_high"] = round2(s.high / e2e_ms * 100);
}

void set_savings(Json& object, const Savings& s) {
  object["estimated_savings_ms"] = round3(s.mid);
  object["estimated_savings_ms_high"] = round3(s.high);
}

Json layout_finding(const Json& metrics, const std::vector<double>& layout_ms, double e2e_ms) {
  const Json& block = member(metrics, "category_specific");
  const double percent = number(block, "layout_transform_percent");
  const double time_ms = number(block, "layout_transform_time_ms");
  if (!(percent > kLayoutFindingPercent) || !(time_ms > 0)) return Json();
  const Json& operations = member(metrics, "operations");
  std::vector<size_t> order;
  for (size_t i = 0; i < layout_ms.size(); ++i) {
    if (layout_ms[i] > 0) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return layout_ms[a] > layout_ms[b]; });
  Json ops = Json::array();
  Json libraries = Json::array();
  std::vector<std::string> seen;
  for (const size_t i : order) {
    const Json& op = operations.as_array()[i];
    const std::string lib = text(op, "library").empty() ? "Unknown" : text(op, "library");
    if (std::find(seen.begin(), seen.end(), lib) == seen.end()) {
      seen.push_back(lib);
      libraries.push_back(lib);
    }
    Json item = Json::object();
    item["name"] = member(op, "name");
    item["args"] = member(op, "args");
    item["layout_transform_ms"] = round3(layout_ms[i]);
    item["time_ms"] = member(op, "time_ms");
    item["operation_index"] = static_cast<std::int64_t>(i);
    ops.push_back(std::move(item));
  }
  const Savings s{compute::kTargetLow / 100 * time_ms, compute::kTargetMid / 100 * time_ms,
                  time_ms};
  Json f = Json::object();
  f["type"] = "layout_conversion";
  f["kernel_count"] = member(block, "layout_transform_kernel_count");
  f["time_ms"] = time_ms;
  f["percent_of_category"] = percent;
  f["category_time_ms"] = member(metrics, "total_time_ms");
  f["libraries"] = std::move(libraries);
  set_savings(f, s);
  set_impact(f, s, e2e_ms);
  f["operations"] = std::move(ops);
  return f;
}

std::string library_list(const Json& libraries) {
  std::string out;
  for (const auto& lib : libraries.as_array()) {
    if (lib.is_string()) out += (out.empty() ? "" : " + ") + lib.as_string();
  }
  return out.empty() ? "Unknown" : out;
}

std::string cell_text(const Json& v) {
  if (v.is_null()) return "\xE2\x80\x94";
  return v.is_string() ? v.as_string() : compute::jnum(v);
}

// The compute tier's 10 Data columns for the operations with layout transforms, plus their
// layout-transform time.
fd::Table layout_table(const Json& metrics, const Json& layout) {
  fd::Table table{{"Operation", "Args", "Kernel Path", "Kernel Name", "Time (ms)", "%E2E", "Count",
                   "FLOPS/Byte", "Efficiency", "Bound", "Layout transforms (ms)"},
                  {}};
  const auto& operations = member(metrics, "operations").as_array();
  for (const auto& item : member(layout, "operations").as_array()) {
    const auto index = static_cast<size_t>(member(item, "operation_index").as_int());
    if (index >= operations.size()) continue;
    const Json& op = operations[index];
    const Json& eff = member(op, "efficiency");
    std::string efficiency = "\xE2\x80\x94";
    std::string bound = "\xE2\x80\x94";
    if (member(eff, "efficiency_percent").is_number()) {
      const bool compute_bound = text(eff, "bound_type") == "compute";
      efficiency =
          compute::fixed2(number(eff, "efficiency_percent")) + "% of " +
          cell_text(member(eff, compute_bound ? "resolved_peak_maf" : "resolved_peak_hbm_bw")) +
          (compute_bound ? " TFLOPS" : " TB/s");
      bound = text(eff, "bound_type") + "-bound";
    }
    table.rows.push_back(
        {text(op, "name"), cell_text(member(op, "args")), cell_text(member(op, "launcher_path")),
         cell_text(member(op, "kernel_name_trunc")), cell_text(member(op, "time_ms")),
         cell_text(member(op, "percent_of_total")), cell_text(member(op, "count")),
         cell_text(member(eff, "flops_per_byte")), efficiency, bound,
         cell_text(member(item, "layout_transform_ms"))});
  }
  return table;
}

// The Overview's "No actionable findings" line no longer holds once the layout card is added.
void drop_no_findings_bullet(fd::Document& doc) {
  for (auto& section : doc.sections) {
    for (auto& block : section.blocks) {
      const Json* items = block.is_object() ? block.find("items") : nullptr;
      if (items == nullptr || !items->is_array()) continue;
      auto& list = block["items"].as_array();
      list.erase(std::remove_if(list.begin(), list.end(),
                                [](const Json& item) {
                                  return item.is_string() &&
                                         item.as_string().rfind("No actionable findings", 0) == 0;
                                }),
                 list.end());
    }
  }
}

}  // namespace

Json findings_across_libraries(const Json& estimates) {
  Json blind = Json::array();
  for (const auto& e : estimates.as_array()) {
    Json copy = e;
    if (text(e, "estimate_method") != "heuristic") {
      copy[kLibraryKey] = member(e, "library");
      copy["library"] = "";
    }
    blind.push_back(std::move(copy));
  }
  Json findings = compute::build_category_findings(blind, false);
  for (auto& f : findings.as_array()) {
    Json libraries = Json::array();
    if (text(f, "estimate_method") == "heuristic") {
      libraries.push_back(member(f, "library"));
      f["libraries"] = std::move(libraries);
      continue;
    }
    std::vector<std::string> seen;
    for (auto& m : f["members"].as_array()) {
      m["library"] = member(m, kLibraryKey);
      erase_key(m, kLibraryKey);
      const std::string lib = m["library"].is_string() ? m["library"].as_string() : "Unknown";
      if (std::find(seen.begin(), seen.end(), lib) == seen.end()) {
        seen.push_back(lib);
        libraries.push_back(lib);
      }
    }
    std::string joined;
    for (const auto& lib : seen) joined += (joined.empty() ? "" : " + ") + lib;
    f["library"] = joined.empty() ? "Unknown" : joined;
    f["libraries"] = std::move(libraries);
  }
  return findings;
}

void apply_corrections(Json& metrics, const compute::CategoryInputs& inputs) {
  if (text(metrics, "status") != "OK" || text(metrics, "comparison_scope") != "standalone") return;
  const JsonView total = inputs.metadata()["gpu_utilization"]["total_time_ms"];
  const double e2e_ms = total.is_number() ? total.as_double() : 0.0;
  const Json& operations = member(metrics, "operations");
  if (!operations.is_array()) return;

  const std::vector<double> layout_ms = layout_ms_by_operation(operations, inputs);
  Json layout = layout_finding(metrics, layout_ms, e2e_ms);
  const bool exclude_layout = !layout.is_null();

  Json regrouped = findings_across_libraries(member(metrics, "impact_estimates"));
  std::vector<bool> used(operations.size(), false);
  Json kept = Json::array();
  for (auto& f : regrouped.as_array()) {
    const bool heuristic = text(f, "estimate_method") == "heuristic";
    const std::vector<long> ops = join(f, operations, used);
    Savings sum;
    double time_ms = 0.0;
    double excluded_ms = 0.0;
    const auto& members = f["members"].as_array();
    for (size_t i = 0; i < members.size(); ++i) {
      const double t = number(members[i], "time_ms");
      if (std::isnan(t)) continue;
      const double layout_part =
          exclude_layout && ops[i] >= 0 ? std::min(t, layout_ms[static_cast<size_t>(ops[i])]) : 0;
      const Savings s = member_savings(members[i], heuristic, t - layout_part);
      sum.low += s.low;
      sum.mid += s.mid;
      sum.high += s.high;
      time_ms += t;
      excluded_ms += layout_part;
    }
    f["time_ms"] = round3(time_ms);
    if (exclude_layout) f["layout_transform_ms_excluded"] = round3(excluded_ms);
    set_savings(f, sum);
    set_impact(f, sum, e2e_ms);
    if (number(f, "impact_score") < compute::kMinPItemImpactScore) {
      for (size_t i = 0; i < ops.size(); ++i) {
        if (ops[i] >= 0) used[static_cast<size_t>(ops[i])] = false;  // back below the gates
      }
      continue;
    }
    kept.push_back(f);
  }
  auto& list = kept.as_array();
  std::stable_sort(list.begin(), list.end(), [](const Json& a, const Json& b) {
    return number(a, "impact_score") > number(b, "impact_score");
  });
  std::int64_t rank = 1;
  for (auto& f : list) f["rank"] = rank++;
  metrics["category_findings"] = std::move(kept);

  Json below = Json::array();
  for (size_t i = 0; i < operations.size(); ++i) {
    if (used[i]) continue;
    const Json& op = operations.as_array()[i];
    Json item = Json::object();
    item["name"] = member(op, "name");
    item["args"] = member(op, "args");
    item["time_ms"] = member(op, "time_ms");
    item["efficiency_percent"] = member(member(op, "efficiency"), "efficiency_percent");
    item["bound_type"] = member(member(op, "efficiency"), "bound_type");
    item["library"] = member(op, "library");
    below.push_back(std::move(item));
  }
  metrics["below_gates"] = std::move(below);
  if (exclude_layout) metrics["layout_conversion_finding"] = std::move(layout);
}

void decorate_findings(fd::Document& doc, const Json& metrics) {
  if (doc.status != fd::Status::Ok || text(metrics, "comparison_scope") != "standalone") return;
  const Json& findings = member(metrics, "category_findings");
  for (size_t i = 0; i < doc.recommendations.size() && i < findings.size(); ++i) {
    const Json& f = findings.as_array()[i];
    auto& impact = doc.recommendations[i].impact;
    if (!impact) continue;
    impact->text += "; estimated saving " + fixed3(number(f, "estimated_savings_ms")) +
                    " ms (high " + fixed3(number(f, "estimated_savings_ms_high")) + " ms) of " +
                    compute::jnum(member(f, "time_ms")) + " ms";
    if (number(f, "layout_transform_ms_excluded") > 0) {
      impact->text += " (its " + fixed3(number(f, "layout_transform_ms_excluded")) +
                      " ms of layout transforms are counted by the layout-conversion finding)";
    }
  }

  const Json& layout = member(metrics, "layout_conversion_finding");
  if (layout.is_object()) {
    const std::string libraries = library_list(member(layout, "libraries"));
    const std::string t = compute::jnum(member(layout, "time_ms"));
    const std::string pct = compute::jnum(member(layout, "percent_of_category"));
    fd::Recommendation card;
    card.title =
        "Layout conversion: NCHW/NHWC transpose kernels take " + pct + "% of convolution time";
    card.library = libraries;
    card.insight = compute::jnum(member(layout, "kernel_count")) +
                   " layout-transform kernel launches around the convolutions take " + t + " ms, " +
                   pct + "% of the " + compute::jnum(member(layout, "category_time_ms")) +
                   " ms of convolution kernel time: the tensors arrive in NCHW while the "
                   "convolution kernels run in NHWC, so every call converts its input and "
                   "output.";
    card.action =
        "Convert the model and its inputs to channels-last: "
        "`model = model.to(memory_format=torch.channels_last)` and "
        "`x = x.to(memory_format=torch.channels_last)`.";
    card.impact = fd::ImpactScores{
        member(layout, "impact_score_low"), member(layout, "impact_score"),
        member(layout, "impact_score_high"),
        "impact_score: " + compute::jnum(member(layout, "impact_score")) + "; estimated saving " +
            fixed3(number(layout, "estimated_savings_ms")) + " ms (high " +
            fixed3(number(layout, "estimated_savings_ms_high")) +
            " ms, the transposes' measured time)"};
    if (member(layout, "impact_score").is_null()) card.impact.reset();

    fd::Detail detail;
    detail.title = card.title + " (" + libraries + ")";
    detail.identification =
        "Kernels whose names mark a layout transform (transpose, nchwToNhwc, nhwcToNchw) were "
        "found among the convolution operations' kernels. (source: `" +
        text(metrics, "category") +
        "_metrics.json` \xE2\x86\x92 `category_specific.layout_transform_time_ms`, "
        "`layout_conversion_finding.operations[]`)";
    detail.data.push_back(fd::table(layout_table(metrics, layout)));
    detail.reasoning =
        "The transposes do no convolution work: each reads and writes a whole activation or "
        "weight tensor only to change its memory order.";
    detail.resolution =
        "With channels-last tensors the library consumes its native layout directly, so the "
        "conversion kernels are not launched.";
    if (card.impact) {
      detail.estimate = fd::DetailEstimate{
          member(layout, "impact_score_low"),
          member(layout, "impact_score_high"),
          {"Low end impact_score: " + compute::jnum(member(layout, "impact_score_low")),
           "High end impact_score: " + compute::jnum(member(layout, "impact_score_high"))}};
    }
    drop_no_findings_bullet(doc);
    // Rank by impact among the other cards.
    size_t at = 0;
    const double mid = number(layout, "impact_score");
    while (at < findings.size() && !(mid > number(findings.as_array()[at], "impact_score"))) ++at;
    at = std::min(at, doc.recommendations.size());
    doc.recommendations.insert(doc.recommendations.begin() + static_cast<std::ptrdiff_t>(at),
                               std::move(card));
    doc.details.insert(doc.details.begin() + static_cast<std::ptrdiff_t>(at), std::move(detail));
    for (size_t i = 0; i < doc.details.size(); ++i) doc.details[i].rank = static_cast<int>(i + 1);
  }

  const Json& below = member(metrics, "below_gates");
  if (below.is_array() && below.size() > 0) {
    std::vector<std::string> bullets;
    double rest_ms = 0.0;
    for (size_t i = 0; i < below.size(); ++i) {
      const Json& op = below.as_array()[i];
      if (i >= kBelowGatesShown) {
        rest_ms += number(op, "time_ms");
        continue;
      }
      std::string line = "`" + text(op, "name") + "`";
      std::string args = text(op, "args");
      for (size_t pos = args.find("<br>"); pos != std::string::npos; pos = args.find("<br>")) {
        args.replace(pos, 4, ", ");
      }
      if (!args.empty()) line += " " + args;
      line += ": " + compute::jnum(member(op, "time_ms")) + " ms";
      const Json& eff = member(op, "efficiency_percent");
      if (eff.is_number()) {
        line += ", " + compute::fixed2(eff.as_double()) + "% efficiency (" +
                text(op, "bound_type") + "-bound)";
      } else {
        line += ", no performance model";
      }
      bullets.push_back(line);
    }
    if (below.size() > kBelowGatesShown) {
      bullets.push_back(std::to_string(below.size() - kBelowGatesShown) + " more operations, " +
                        fixed3(rest_ms) + " ms together");
    }
    doc.trailing_sections.push_back(
        {"Operations Below the Gates",
         {fd::paragraph("These operations are in no finding: their projected saving does not "
                        "reach the 0.5% E2E finding threshold (or they have no model)."),
          fd::bullets(bullets)}});
  }
}

}  // namespace loupe::conv
