#include "findings_builder.hpp"

#include <cstdio>
#include <map>
#include <set>

#include "framework.hpp"
#include "loupe/python_format.hpp"
#include "patterns.hpp"

namespace loupe::fusion {

namespace fd = loupe::findings;

namespace {

constexpr const char* kStandaloneMethodology =
    "**Methodology:** impact_score projections estimate the recoverable fraction of E2E with 85% "
    "memory/compute pipeline overlap (i.e. fused kernel time is interpolated between perfect "
    "overlap and no overlap). Actual recoverable time may vary with workload and hardware.";
constexpr const char* kComparativeMethodology =
    "**Methodology:** Savings are measured as the total GPU time difference between trace1 and "
    "trace2, accumulated across all instances. No roofline projection is used.";

std::string fixed(double value, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.*f", decimals, value);
  return buf;
}

std::string capitalized(const std::string& level) {
  if (level.empty()) return level;
  std::string out = level;
  out[0] = static_cast<char>(out[0] - 'a' + 'A');
  return out;
}

// Inline code span text: backticks would end the span.
std::string code(const std::string& text) {
  std::string out;
  for (char c : text) out.push_back(c == '`' ? '\'' : c);
  for (const char* bad : {"<!--", "-->"}) {
    for (size_t pos = out.find(bad); pos != std::string::npos; pos = out.find(bad)) {
      out.replace(pos, std::string_view(bad).size(), "");
    }
  }
  return "`" + out + "`";
}

std::string signal_words(const std::string& signal) {
  static const std::map<std::string, std::string> kWords = {
      {"attention", "attention"},
      {"norm", "a normalization"},
      {"mlp", "an MLP block"},
      {"rope", "a rotary embedding"},
      {"siglu", "a SiLU/SwiGLU activation"},
      {"elementwise_chain", "an elementwise chain"},
  };
  const auto it = kWords.find(signal);
  return it == kWords.end() ? signal : it->second;
}

std::string confidence_reason(const Confidence& c) {
  if (c.name_signal && c.comp_signal) {
    if (*c.name_signal == *c.comp_signal ||
        (*c.name_signal == "siglu" && *c.comp_signal == "mlp")) {
      return "module name indicates " + signal_words(*c.name_signal) +
             " and kernel composition confirms it";
    }
    return "module name indicates " + signal_words(*c.name_signal) +
           (c.level == "high" ? " and" : " but") + " kernel composition matches " +
           signal_words(*c.comp_signal);
  }
  if (c.name_signal) {
    return "module name indicates " + signal_words(*c.name_signal) +
           "; kernel composition does not confirm it";
  }
  if (c.comp_signal) {
    return "kernel composition matches " + signal_words(*c.comp_signal) +
           "; module name gives no hint";
  }
  return "no name or composition signal; structural grouping only";
}

// "5 Elementwise, 2 GEMM" in order of first appearance.
std::string type_summary(const std::vector<EnrichedKernel>& kernels) {
  std::vector<std::pair<std::string, int>> counts;
  for (const auto& k : kernels) {
    bool found = false;
    for (auto& [type, n] : counts) {
      if (type == k.type) {
        ++n;
        found = true;
      }
    }
    if (!found) counts.emplace_back(k.type, 1);
  }
  std::string out;
  for (const auto& [type, n] : counts) {
    out += (out.empty() ? "" : ", ") + std::to_string(n) + " " + (type.empty() ? "Unknown" : type);
  }
  return out;
}

// The nearest enclosing nn.Module of the parent chain (python frames contain "(").
std::string nearest_module(const Candidate& c) {
  for (const auto& parent : c.parent_chain) {
    if (!parent.empty() && parent.find('(') == std::string::npos &&
        parent.find(' ') == std::string::npos) {
      return parent;
    }
  }
  return {};
}

std::string display_name(const Candidate& c) {
  return c.module_name.empty() ? c.operation : c.module_name;
}

std::string title_of(const std::string& pattern, const Estimate& e) {
  std::string instances = std::to_string(e.instance_count) + " instances";
  if (e.time_source == TimeSource::MeasuredInstances ||
      e.time_source == TimeSource::FirstInstanceOnly) {
    if (e.measured_instances < e.instance_count) {
      instances = std::to_string(e.measured_instances) + " of " + instances + " measured";
    }
  }
  // Compat keeps TraceLens's number and says what it is (docs/deviations.md M1).
  const bool scaled =
      e.time_source == TimeSource::FirstInstanceScaled && !e.comparative && e.instance_count > 1;
  if (scaled) {
    return pattern + " (" + py::float_repr(e.time_ms) + " ms extrapolated: first instance x " +
           std::to_string(e.instance_count) + ")";
  }
  return pattern + " (" + py::float_repr(e.time_ms) + " ms, " + instances + ")";
}

// The saving the metrics carry as estimated_savings_ms.
double savings_ms(const Estimate& e) { return py::round_half_even(e.savings_mid_ms, 3); }

// M1: the sentence that says what time_ms is, in the terms of its source.
std::string time_sentence(const Estimate& e) {
  switch (e.time_source) {
    case TimeSource::FirstInstanceScaled:
      return " Scaling its first instance by the instance count gives " +
             py::float_repr(e.time_ms) + " ms of GPU time.";
    case TimeSource::AccumulatedTotal:
      return " Its kernels take " + py::float_repr(e.time_ms) +
             " ms of GPU time summed over all instances.";
    case TimeSource::FirstInstanceOnly:
      return " Only its first instance could be measured (the raw trace's kernel timeline is not "
             "available or does not identify the other instances): its kernels take " +
             py::float_repr(e.time_ms) + " ms; the other " + std::to_string(e.instance_count - 1) +
             " instances are not counted.";
    case TimeSource::MeasuredInstances:
      break;
  }
  std::string text = " Its kernels take " + py::float_repr(e.time_ms) +
                     " ms of measured GPU time over " + std::to_string(e.measured_instances) +
                     " instances";
  if (e.groups.size() > 1) {
    text += " in " + std::to_string(e.groups.size()) + " groups of distinct kernels (";
    for (size_t i = 0; i < e.groups.size(); ++i) {
      const auto& g = e.groups[i];
      text += (i == 0 ? "" : ", ") + std::to_string(g.instances) + " instances " +
              fixed(py::round_half_even(g.time_ms, 3), 3) + " ms";
    }
    text += ")";
  }
  text += ".";
  if (e.measured_instances < e.instance_count) {
    text += " The other " + std::to_string(e.instance_count - e.measured_instances) +
            " instances launch a different kernel sequence and are not counted.";
  }
  return text;
}

std::string insight(const Candidate& c, const Estimate& e, const PatternMatch& m) {
  std::string text = code(display_name(c)) + " launches " + std::to_string(e.kernel_count) +
                     " separate GPU kernels per instance (" + type_summary(e.kernels) +
                     ") across " + std::to_string(e.instance_count) + " instances.";
  if (e.comparative) {
    text += " Trace1 spends " + py::float_repr(e.time_ms) + " ms of GPU time in them.";
  } else {
    text += time_sentence(e);
  }
  if (e.comparative) {
    text += " Trace1 launches " + std::to_string(c.kernel_count.value_or(0)) +
            " kernels where trace2 launches " + std::to_string(c.kernel_count_trace2.value_or(0)) +
            ".";
  }
  if (m.from_name_only) {
    text += " The pattern is named from the module name; the kernel names alone do not show it.";
  } else {
    text += " The kernel mix shows " + m.evidence + ".";
  }
  text +=
      " Each kernel is a separate pass over GPU memory, so these kernels are likely fusable "
      "based on the module structure.";
  return text;
}

std::string identification(const Candidate& c, const Estimate& e) {
  std::string text;
  if (c.source == "sibling_sequence") {
    text = "A run of " + std::to_string(e.kernel_count) + " consecutive GPU kernels under " +
           code(display_name(c)) +
           " was found by the sibling-sequence scan, and none of them is a "
           "fused kernel.";
  } else {
    text = code(display_name(c)) + " launches " + std::to_string(e.kernel_count) +
           " GPU kernels per call and none of them is a fused kernel.";
  }
  if (const std::string parent = nearest_module(c); !parent.empty()) {
    text += " It runs inside " + code(parent) + ".";
  }
  if (e.comparative) {
    text +=
        " (source: `fusion_candidates.json` \xE2\x86\x92 `module_name`, `kernel_count_trace1`, "
        "`kernel_count_trace2`, `kernels_trace1[]`, `kernels_trace2[]`)";
  } else {
    text +=
        " (source: `fusion_candidates.json` \xE2\x86\x92 `module_name`, `has_fused_kernel`, "
        "`kernels[]`)";
  }
  return text;
}

std::vector<Json> data_blocks(const Candidate& c, const Estimate& e) {
  std::vector<Json> blocks;
  if (!e.comparative) {
    fd::Table t{{"Kernel", "Type", "Duration (us)", "Perf model"}, {}};
    for (const auto& k : e.kernels) {
      t.rows.push_back({fd::table_cell(k.name, kCellChars), fd::table_cell(k.type, kCellChars),
                        fixed(k.dur_us, 1), k.has_perf_data ? "Yes" : "No"});
    }
    blocks.push_back(fd::table(std::move(t)));
    if (e.time_source == TimeSource::MeasuredInstances) {
      // M1: where the measured time is, group by group (instances that launch the same kernels).
      blocks.push_back(
          fd::paragraph("**Measured instances** (the table above is the first "
                        "instance; each group launches the same kernels):"));
      fd::Table g{{"Group", "Instances", "First kernel", "Kernel time (ms)", "Per instance (us)",
                   "Saving, high (ms)"},
                  {}};
      for (size_t i = 0; i < e.groups.size(); ++i) {
        const auto& group = e.groups[i];
        const double per_instance =
            group.instances > 0 ? group.time_ms * 1000 / static_cast<double>(group.instances) : 0;
        g.rows.push_back(
            {std::to_string(i + 1), std::to_string(group.instances),
             fd::table_cell(group.kernel_names.empty() ? "" : group.kernel_names.front(),
                            kCellChars),
             fixed(py::round_half_even(group.time_ms, 3), 3), fixed(per_instance, 1),
             fixed(py::round_half_even(group.savings_high_ms, 3), 3)});
      }
      blocks.push_back(fd::table(std::move(g)));
    }
    return blocks;
  }
  auto kernel_table = [](const auto& kernels) {
    fd::Table t{{"Kernel", "Type", "Duration (us)"}, {}};
    for (const auto& k : kernels) {
      t.rows.push_back({fd::table_cell(k.name, kCellChars), fd::table_cell(k.type, kCellChars),
                        fixed(k.dur_us, 1)});
    }
    return fd::table(std::move(t));
  };
  blocks.push_back(fd::paragraph("**Trace1 kernels:**"));
  blocks.push_back(kernel_table(e.kernels));
  blocks.push_back(fd::paragraph("**Trace2 kernels:**"));
  blocks.push_back(kernel_table(c.kernels_trace2));
  return blocks;
}

std::vector<std::string> estimate_bullets(const Estimate& e) {
  std::vector<std::string> bullets = {"Low end impact_score: " + fixed(e.impact_low, 2),
                                      "High end impact_score: " + fixed(e.impact_high, 2)};
  if (!e.comparative) {
    std::string coverage = "Coverage: " + std::to_string(e.modeled_count) + " of " +
                           std::to_string(e.kernel_count) + " kernels modelled";
    if (e.kernel_count > e.modeled_count) {
      coverage += " (" + std::to_string(e.kernel_count - e.modeled_count) +
                  " kernel(s) use measured trace time)";
    }
    bullets.push_back(coverage);
  }
  bullets.push_back("Fusion pattern: " + e.bound_type + "-bound, " + e.fusion_type);
  bullets.push_back("Confidence: " + capitalized(e.confidence.level) + " \xE2\x80\x94 " +
                    confidence_reason(e.confidence));
  return bullets;
}

// Bullets saying why candidates got no card (gates and Decision 1), for the user.
std::vector<std::string> rejection_bullets(const FindingsContext& ctx) {
  std::vector<std::string> out;
  if (ctx.rejected != nullptr) {
    for (const auto& r : *ctx.rejected) {
      const Candidate& c = ctx.candidates->at(r.candidate);
      out.push_back(code(display_name(c)) + ": rejected (" + r.rule + ") because " + r.reason +
                    ".");
    }
  }
  if (ctx.gate_rejections != nullptr) {
    for (const auto& g : *ctx.gate_rejections) {
      const Candidate& c = ctx.candidates->at(g.candidate);
      out.push_back(code(display_name(c)) + ": no estimate (" + g.rejection.rule + ") because " +
                    g.rejection.reason + ".");
    }
  }
  return out;
}

fd::Document base_document(bool comparative) {
  return fd::new_findings(fd::Style::Fusion, "kernel_fusion",
                          comparative ? Scope::Comparative : Scope::Standalone, kFindingsTitle);
}

}  // namespace

fd::Document error_findings(const std::string& message, bool comparative) {
  return fd::error_document(fd::Style::Fusion, "kernel_fusion",
                            comparative ? Scope::Comparative : Scope::Standalone, kFindingsTitle,
                            message);
}

fd::Document build_findings(const std::vector<Estimate>& estimates, const FindingsContext& ctx) {
  fd::Document doc = base_document(ctx.comparative);
  const std::size_t filtered = ctx.candidates == nullptr ? 0 : ctx.candidates->size();

  if (estimates.empty()) {
    doc.status = fd::Status::NoData;
    doc.message = "No kernel fusion opportunities detected.";
    std::vector<Json> blocks;
    std::string facts = std::to_string(ctx.raw_candidate_count) +
                        " fusion candidates were read and " + std::to_string(filtered) +
                        " passed the 15-kernel cap, the 2%-of-E2E time floor and deduplication.";
    if (filtered > 0 && !(ctx.baseline_ms > 0)) {
      facts +=
          " The manifest gives no positive E2E GPU time (gpu_utilization.total_time_ms), so "
          "no impact_score can be computed.";
    } else if (filtered > 0) {
      facts += " None of them produced an impact estimate that passes the gates.";
    }
    blocks.push_back(fd::paragraph(facts));
    doc.sections.push_back({"Overview", std::move(blocks)});
    if (auto bullets = rejection_bullets(ctx); !bullets.empty()) {
      doc.trailing_sections.push_back({"Candidates Without a Card", {fd::bullets(bullets)}});
    }
    return doc;
  }

  std::set<std::string> operations;
  for (const auto& e : estimates) operations.insert(e.operation);
  doc.sections.push_back(
      {"Overview",
       {fd::paragraph("Found " + std::to_string(estimates.size()) +
                      " kernel fusion opportunities across " + std::to_string(operations.size()) +
                      " module types."),
        fd::quote(ctx.comparative ? kComparativeMethodology : kStandaloneMethodology)}});

  fd::Table summary{{"Recommendation", "Type", "Estimated Savings (ms)",
                     "Estimated Improvement (E2E %)", "Confidence"},
                    {}};
  int rank = 0;
  for (const auto& e : estimates) {
    ++rank;
    const Candidate& c = ctx.candidates->at(e.candidate);
    const PatternMatch m = classify_pattern(c, e);
    const std::string pattern = pattern_name(m.pattern);
    const std::string title = title_of(pattern, e);
    const std::string level = capitalized(e.confidence.level);

    fd::Recommendation card;
    card.title = title;
    card.insight = insight(c, e, m);
    card.action = pattern_action(m.pattern);
    if (!ctx.first_instance_time) {  // default mode: the switch for the framework (F1)
      card.action += " " + framework_action(detect_framework(c), m.pattern);
    }
    std::string impact_text = "impact_score: " + py::float_repr(e.impact_mid);
    if (!e.comparative) {
      impact_text += " (perf-model coverage " + std::to_string(e.modeled_count) + "/" +
                     std::to_string(e.kernel_count) + " kernels)";
    }
    const bool measured_savings = !ctx.first_instance_time;  // default mode (M1)
    if (measured_savings) {
      impact_text += "; estimated saving " + fixed(savings_ms(e), 3) + " ms (high " +
                     fixed(py::round_half_even(e.savings_high_ms, 3), 3) + " ms) of " +
                     py::float_repr(e.time_ms) + " ms";
    }
    card.impact =
        fd::ImpactScores{Json(e.impact_low), Json(e.impact_mid), Json(e.impact_high), impact_text};
    card.confidence = fd::Confidence{level, confidence_reason(e.confidence)};
    if (measured_savings) {  // what the run's time ledger reads (docs/findings-schema.md)
      card.evidence = fd::Evidence::Modeled;
      card.saving_ms = fd::SavingMs{0.75 * e.savings_high_ms, e.savings_mid_ms, e.savings_high_ms};
      card.claims.kernels = e.kernel_uids;
    }
    doc.recommendations.push_back(std::move(card));

    fd::Detail detail;
    detail.rank = rank;
    detail.title = title;
    detail.identification = identification(c, e);
    detail.data = data_blocks(c, e);
    detail.estimate =
        fd::DetailEstimate{Json(e.impact_low), Json(e.impact_high), estimate_bullets(e)};
    doc.details.push_back(std::move(detail));

    const double table_savings =
        measured_savings ? savings_ms(e) : e.impact_mid * ctx.baseline_ms / 100;
    summary.rows.push_back({"P" + std::to_string(rank) + ": " + pattern, e.fusion_type,
                            fixed(table_savings, 3), fixed(e.impact_mid, 2), level});
  }
  doc.trailing_sections.push_back({"Impact Summary", {fd::table(std::move(summary))}});
  if (auto bullets = rejection_bullets(ctx); !bullets.empty()) {
    doc.trailing_sections.push_back({"Candidates Without a Card", {fd::bullets(bullets)}});
  }
  return doc;
}

}  // namespace loupe::fusion
