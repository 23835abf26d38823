#include "loupe/core/report/analysis_report.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <optional>
#include <sstream>

#include "findings_blocks.hpp"
#include "loupe/core/report/memory_report.hpp"
#include "loupe/core/report/recording_report.hpp"
#include "loupe/core/report/serving_report.hpp"
#include "loupe/core/report/steps_report.hpp"
#include "loupe/python_format.hpp"
#include "loupe/text.hpp"
#include "report_text.hpp"

namespace loupe::core {

namespace {

using report_detail::card_field;
using report_detail::FindingsBlock;
using report_detail::fixed;
using report_detail::fixed_or_dash;
using report_detail::kEmDash;
using report_detail::number_at;
using report_detail::number_of;
using report_detail::text_at;

constexpr const char* kRed = "\xF0\x9F\x94\xB4";     // U+1F534
constexpr const char* kYellow = "\xF0\x9F\x9F\xA1";  // U+1F7E1
constexpr const char* kGreen = "\xF0\x9F\x9F\xA2";   // U+1F7E2
constexpr const char* kCheck = "\xE2\x9C\x85";       // U+2705
constexpr const char* kArrow = "\xE2\x86\x92";       // U+2192

const char* icon_for_priority(size_t n) { return n == 1 ? kRed : n == 2 ? kYellow : kGreen; }

const Json::Array& array_at(const Json& object, std::string_view key) {
  static const Json::Array empty;
  const Json* v = object.find(key);
  return v != nullptr && v->is_array() ? v->as_array() : empty;
}

std::string signed_fixed(double value, int digits) {
  return (value >= 0 ? "+" : "") + fixed(value, digits);
}
// A priority_data number as a marker attribute: Python's repr, "null" for None.
std::string marker_number(const Json* v) {
  if (v == nullptr || v->is_null()) return "null";
  if (v->is_int()) return std::to_string(v->as_int());
  if (v->is_double()) return py::float_repr(v->as_double());
  return "null";
}
// A manifest number verbatim, as TraceLens's template asks.
std::string verbatim(const Json* v) {
  if (v == nullptr || v->is_null()) return kEmDash;
  if (v->is_int()) return std::to_string(v->as_int());
  if (v->is_double()) return py::float_repr(v->as_double());
  if (v->is_string()) return v->as_string();
  return kEmDash;
}

struct Utilization {
  std::optional<double> total_ms, compute_pct, idle_pct, comm_pct;
  std::optional<double> compute_ms() const {
    if (!total_ms || !compute_pct) return std::nullopt;
    return *total_ms * *compute_pct / 100.0;
  }
};
Utilization utilization(const Json& manifest, std::string_view key) {
  Utilization u;
  if (const Json* g = manifest.find(key); g != nullptr && g->is_object()) {
    u.total_ms = number_at(*g, "total_time_ms");
    u.compute_pct = number_at(*g, "computation_time_percent");
    u.idle_pct = number_at(*g, "idle_time_percent");
    u.comm_pct = number_at(*g, "exposed_comm_time_percent");
  }
  return u;
}

struct TopCategory {
  std::string name;
  double time_ms = 0.0;
};
// The compute category with the most GPU kernel time (manifest order breaks ties).
std::optional<TopCategory> top_category(const Json& manifest) {
  std::optional<TopCategory> top;
  for (const auto& c : array_at(manifest, "categories")) {
    if (text_at(c, "tier") != "compute_kernel") continue;
    const auto t = number_at(c, "gpu_kernel_time_ms");
    if (!t) continue;
    if (!top || *t > top->time_ms) {
      std::string name = text_at(c, "display_name");
      if (name.empty()) name = text_at(c, "name");
      top = TopCategory{name, *t};
    }
  }
  return top;
}
std::optional<TopCategory> top_category_trace2(const Json& manifest) {
  std::optional<TopCategory> top;
  for (const auto& c : array_at(manifest, "trace2_ops_summary_by_category")) {
    const auto t = number_at(c, "total_direct_kernel_time_ms");
    if (t && (!top || *t > top->time_ms)) top = TopCategory{text_at(c, "op category"), *t};
  }
  return top;
}
std::string top_cell(const std::optional<TopCategory>& top, const Utilization& u) {
  if (!top) return kEmDash;
  const auto compute = u.compute_ms();
  if (!compute || *compute <= 0) return top->name;
  return top->name + " (" + fixed(top->time_ms / *compute * 100.0, 1) + "%)";
}

const Json* manifest_category(const Json& manifest, const std::string& name) {
  for (const auto& c : array_at(manifest, "categories")) {
    if (text_at(c, "name") == name) return &c;
  }
  return nullptr;
}

// What findings.json's entries of a category's cards are keyed by: the category, or
// <category>.<plugin> for a contributing analyzer's.
std::string card_key(const std::string& category, const std::string& plugin, bool contributing) {
  return contributing ? category + "." + plugin : category;
}
std::string finding_key(const RunFinding& f) {
  return card_key(f.category, f.plugin, f.contributed);
}

// Findings of one style, category by category (cpu_idle first among the system ones).
struct StyledCard {
  const ReportCategory* category = nullptr;
  FindingsBlock card;
  const FindingsBlock* detail = nullptr;
};

class ReportWriter {
 public:
  explicit ReportWriter(const AnalysisReportInput& in)
      : in_(in), comparative_(in.scope == Scope::Comparative) {
    for (const auto& c : in_.categories) {
      if (c.status != findings::Status::Ok || c.markdown.empty()) continue;
      cards_[&c] = report_detail::recommendation_cards(c.markdown);
      details_[&c] = report_detail::detail_blocks(c.markdown);
    }
  }

  std::string write() {
    number_from_run_findings();
    title();
    executive_summary();
    warnings();
    out_ << recording_report_markdown(in_.recording);
    out_ << steps_report_markdown(in_.steps);
    out_ << memory_report_markdown(in_.memory);
    if (!in_.serving.is_null()) out_ << serving_report_markdown(in_.serving);
    compute_section();
    fusion_section();
    system_section();
    contributed_section();
    detailed_analysis();
    appendix();
    return single_blank_lines(out_.str());
  }

  // The analyzers' blocks bring their own spacing; no more than one blank line in a row.
  static std::string single_blank_lines(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
      if (c == '\n' && out.size() >= 2 && out[out.size() - 1] == '\n' &&
          out[out.size() - 2] == '\n') {
        continue;
      }
      out.push_back(c);
    }
    return out;
  }

 private:
  const AnalysisReportInput& in_;
  bool comparative_;
  std::ostringstream out_;
  std::map<const ReportCategory*, std::vector<FindingsBlock>> cards_;
  std::map<const ReportCategory*, std::vector<FindingsBlock>> details_;
  std::vector<StyledCard> compute_, fusion_, system_, contributed_;
  std::vector<const Json*> compute_findings_;  // priority_data.findings[i] of compute_[i]
  // Default mode: the run's one numbering, findings.json's priorities, by (category, rank in
  // its findings file); merged cards carry their owner's number; cards findings.json does not
  // rank (no model behind them) are numbered after every ranked one.
  std::map<std::pair<std::string, int>, long long> priority_of_;
  std::map<std::pair<std::string, int>, long long> part_of_;
  std::map<long long, std::vector<std::string>> parts_of_;  // owner's priority -> part titles
  std::map<const StyledCard*, std::pair<long long, std::string>> labels_;
  long long next_unranked_ = 0;

  // findings.json's entry for a card (default mode), or null.
  const RunFinding* ranked_finding(const StyledCard& sc) const {
    if (!in_.run_findings || sc.category == nullptr) return nullptr;
    const std::string key =
        card_key(sc.category->category, sc.category->plugin, sc.category->contributing);
    for (const RunFinding& f : in_.run_findings->findings) {
      if (f.category_rank == sc.card.number && finding_key(f) == key) return &f;
    }
    return nullptr;
  }

  void number_from_run_findings() {
    if (!in_.run_findings) return;
    long long last = 0;
    for (const RunFinding& f : in_.run_findings->findings) {
      if (f.priority <= 0 || f.category_rank <= 0) continue;
      const auto priority = static_cast<long long>(f.priority);
      last = std::max(last, priority);
      priority_of_[{finding_key(f), static_cast<int>(f.category_rank)}] = priority;
      for (const MergedPart& part : f.parts) {
        if (part.category_rank <= 0) continue;
        part_of_[{card_key(part.category, part.plugin.value_or(""), part.contributed),
                  static_cast<int>(part.category_rank)}] = priority;
        parts_of_[priority].push_back(part.title + " (" + part.category + ")");
      }
    }
    next_unranked_ = last + 1;
  }

  // The number and the title suffix an item is shown with: its position in its section (compat
  // mode: TraceLens's layout), else findings.json's priority.
  std::pair<long long, std::string> label(const StyledCard& sc, size_t position) {
    if (!in_.run_findings || sc.category == nullptr) {
      return {static_cast<long long>(position), ""};
    }
    if (const auto it = labels_.find(&sc); it != labels_.end()) return it->second;
    const std::pair<std::string, int> key{
        card_key(sc.category->category, sc.category->plugin, sc.category->contributing),
        sc.card.number};
    std::pair<long long, std::string> out;
    if (const auto p = priority_of_.find(key); p != priority_of_.end()) {
      out = {p->second, ""};
    } else if (const auto o = part_of_.find(key); o != part_of_.end()) {
      out = {o->second, " (part of P" + std::to_string(o->second) + ")"};
    } else {
      out = {next_unranked_++, " (not ranked: no saving claimed, see findings.json `coverage`)"};
    }
    labels_[&sc] = out;
    return out;
  }

  // Under an owner's heading: the findings the time ledger merged into it, once per owner.
  void parts_note(long long priority, const std::string& suffix) {
    if (!suffix.empty()) return;  // a part or an unranked item, not an owner
    const auto it = parts_of_.find(priority);
    if (it == parts_of_.end() || it->second.empty()) return;
    out_ << "*Also covers, merged into this item because it owns their kernels (each kernel's "
            "time counts once): ";
    for (std::size_t i = 0; i < it->second.size(); ++i) {
      out_ << (i == 0 ? "" : "; ") << it->second[i];
    }
    out_ << ".*\n\n";
  }

  std::string platform() const {
    const std::string p = text_at(in_.manifest, "platform");
    return p.empty() ? in_.platform.name.empty() ? "Unknown platform" : in_.platform.name : p;
  }
  // Trace 2's own platform in default mode (the manifest's trace2_platform), else trace 1's.
  std::string platform2() const {
    const std::string p = text_at(in_.manifest, "trace2_platform");
    return p.empty() ? platform() : p;
  }
  std::string model_name() const {
    return in_.model.model == kCannotInfer ? "Workload" : in_.model.model;
  }

  void title() {
    if (comparative_) {
      out_ << "# " << model_name() << " - Comparative Analysis: Trace 1 (" << platform()
           << ") vs Trace 2 (" << platform2() << ")\n\n";
    } else {
      out_ << "# " << model_name() << " - " << platform() << " Standalone Analysis\n\n";
    }
    out_ << "Written by Loupe from this run's analyzer outputs (`priority_data.json`, "
            "`findings.json`, `category_data/`, `category_findings/`, `system_findings/`). "
            "Times are measured; savings are estimates.\n\n";
  }

  void collect() {
    // Compute: one card per priority_data.findings[] entry, joined by (category, rank).
    for (const auto& f : array_at(in_.priority_data, "findings")) {
      const std::string category = text_at(f, "category");
      const auto rank = number_at(f, "category_rank");
      StyledCard sc;
      for (const auto& c : in_.categories) {
        if (c.category != category || c.contributing) continue;
        sc.category = &c;
        if (const auto it = cards_.find(&c); it != cards_.end() && rank) {
          for (const auto& card : it->second) {
            if (card.number == static_cast<int>(*rank)) sc.card = card;
          }
          for (const auto& d : details_[&c]) {
            if (d.number == static_cast<int>(*rank)) sc.detail = &d;
          }
        }
      }
      if (sc.card.title.empty()) {
        sc.card.title = category + " finding " + (rank ? fixed(*rank, 0) : std::string("?"));
        sc.card.body = {
            "**Insight**: the analyzer's card for this finding is not in its "
            "findings file.",
            "**Action**: see `category_data/" + category + "_metrics.json`."};
      }
      compute_.push_back(std::move(sc));
      compute_findings_.push_back(&f);
    }
    // Fusion and system: every card of the categories of that style, in execution order.
    auto add_style = [&](std::string_view style, std::vector<StyledCard>& into, bool idle_first) {
      std::vector<const ReportCategory*> order;
      for (const auto& c : in_.categories) {
        if (c.style == style && !c.contributing && cards_.contains(&c)) order.push_back(&c);
      }
      if (idle_first) {
        std::stable_partition(order.begin(), order.end(),
                              [](const ReportCategory* c) { return c->category == "cpu_idle"; });
      }
      for (const auto* c : order) {
        const auto& details = details_[c];
        for (size_t i = 0; i < cards_[c].size(); ++i) {
          StyledCard sc{c, cards_[c][i], nullptr};
          if (i < details.size()) sc.detail = &details[i];
          into.push_back(std::move(sc));
        }
      }
    };
    add_style("fusion", fusion_, false);
    add_style("system", system_, true);
    for (const auto& c : in_.categories) {
      if (!c.contributing || !cards_.contains(&c)) continue;
      for (const auto& card : cards_[&c]) contributed_.push_back(StyledCard{&c, card, nullptr});
    }
  }

  // Cards of contributing analyzers (docs/plugin-abi.md, "Contributing analyzers"), with their
  // plugin's name and version and findings.json's numbers; no section without any.
  void contributed_section() {
    if (contributed_.empty()) return;
    out_ << "## Contributed Findings\n\n";
    out_ << "Findings of analyzers that contribute to a category beside its primary analyzer, "
            "ranked with every other finding in `findings.json`.\n\n";
    for (size_t i = 0; i < contributed_.size(); ++i) {
      const auto& sc = contributed_[i];
      const auto [shown, suffix] = label(sc, i + 1);
      out_ << "### P" << shown << ": " << sc.card.title << suffix << "\n\n";
      out_ << "*Contributed by plugin `" << sc.category->plugin << "` "
           << sc.category->plugin_version << " to " << sc.category->category << " (`"
           << sc.category->findings_path << "`).*\n\n";
      for (const auto& line : sc.card.body) {
        out_ << line << "\n";
        if (!line.empty() && line.rfind("<!-- impact-begin", 0) != 0 &&
            line.rfind("**Impact**", 0) != 0) {
          out_ << "\n";
        }
      }
      out_ << "\n";
    }
    out_ << "---\n\n";
  }

  void executive_summary() {
    collect();
    const Utilization u1 = utilization(in_.manifest, "gpu_utilization");
    const auto top1 = top_category(in_.manifest);
    out_ << "## Executive Summary\n\n";
    std::ostringstream para;
    if (comparative_) {
      const Utilization u2 = utilization(in_.manifest, "trace2_gpu_utilization");
      para << "Trace 1 (" << platform() << ") took " << fixed_or_dash(u1.total_ms, 3, " ms")
           << " of GPU time and Trace 2 (" << platform2() << ") "
           << fixed_or_dash(u2.total_ms, 3, " ms") << ".";
      if (u1.total_ms && u2.total_ms && *u1.total_ms > 0) {
        const double pct = (*u2.total_ms - *u1.total_ms) / *u1.total_ms * 100.0;
        para << " Trace 2 is " << fixed(pct < 0 ? -pct : pct, 1) << "% "
             << (pct <= 0 ? "faster" : "slower") << " than Trace 1.";
      }
    } else {
      para << "The trace holds " << fixed_or_dash(u1.total_ms, 3, " ms") << " of GPU time on "
           << platform() << ": " << fixed_or_dash(u1.compute_pct, 1, "%") << " computation, "
           << fixed_or_dash(u1.idle_pct, 1, "%") << " idle, " << fixed_or_dash(u1.comm_pct, 1, "%")
           << " exposed communication.";
      if (top1) para << " The largest compute category is " << top_cell(top1, u1) << ".";
    }
    para << " Loupe found " << compute_.size() << " compute-kernel "
         << (compute_.size() == 1 ? "finding" : "findings") << ", " << fusion_.size()
         << " kernel-fusion " << (fusion_.size() == 1 ? "candidate" : "candidates") << " and "
         << system_.size() << " system-level " << (system_.size() == 1 ? "finding" : "findings")
         << ".";
    if (in_.run_findings) {
      // Default mode: the ranked answer, as findings.json, the terminal and report.html give it.
      const RunFindings& run = *in_.run_findings;
      if (!run.findings.empty()) {
        const RunFinding& p1 = run.findings.front();
        const auto pct = p1.saving_percent_mid();
        para << " P1 is " << p1.title << " (" << p1.category << ")";
        if (p1.saving_ms && pct) {
          para << ", estimated to save " << fixed(p1.saving_ms->mid, 3) << " ms (" << fixed(*pct, 2)
               << "% of E2E, " << (p1.evidence ? findings::to_string(*p1.evidence) : "") << ")";
        }
        para << ". Items are numbered as in `findings.json`: each GPU kernel's time counts in one "
                "finding only, and the ranked savings together fit in the run's time.";
        const auto together = run.combined_step_gain_ms;
        const auto sum = run.combined_saving_sum_ms;
        if (together && sum && *sum > *together + 0.0005) {
          para << " Applied together, the step-checked findings would shorten the run by "
               << fixed(*together, 3) << " ms (what-if), less than their savings' sum ("
               << fixed(*sum, 3)
               << " ms): each is what it would gain alone, and they overlap "
                  "in run time (`findings.json` `what_if.cumulative_step_gain_ms`).";
        }
      }
    } else if (!compute_.empty()) {
      const Json& f = *compute_findings_.front();
      const auto mid = number_at(f, "impact_score");
      para << " The first compute item, P1 " << compute_.front().card.title;
      if (mid && u1.total_ms) {
        para << ", is estimated to save " << fixed(*mid / 100.0 * *u1.total_ms, 3) << " ms ("
             << fixed(*mid, 2) << "% of E2E)";
      }
      para << ".";
    }
    out_ << para.str() << "\n\n";

    if (comparative_) {
      const Utilization u2 = utilization(in_.manifest, "trace2_gpu_utilization");
      out_ << "| Metric | Trace 1 - (" << platform() << ") | Trace 2 - (" << platform2()
           << ") | Difference |\n";
      out_ << "|--------|----------------------------|-------------------------------|---------"
              "---|\n";
      std::string total_diff = kEmDash;
      if (u1.total_ms && u2.total_ms) {
        total_diff = signed_fixed(*u2.total_ms - *u1.total_ms, 3) + " ms";
        if (*u1.total_ms > 0) {
          total_diff +=
              " (" + signed_fixed((*u2.total_ms - *u1.total_ms) / *u1.total_ms * 100.0, 1) + "%)";
        }
      }
      out_ << "| Total Time | " << fixed_or_dash(u1.total_ms, 3, " ms") << " | "
           << fixed_or_dash(u2.total_ms, 3, " ms") << " | " << total_diff << " |\n";
      auto pct_row = [&](const char* name, std::optional<double> a, std::optional<double> b) {
        out_ << "| " << name << " | " << fixed_or_dash(a, 1, "%") << " | "
             << fixed_or_dash(b, 1, "%") << " | "
             << (a && b ? signed_fixed(*b - *a, 1) + "%" : std::string(kEmDash)) << " |\n";
      };
      pct_row("Compute %", u1.compute_pct, u2.compute_pct);
      pct_row("Idle %", u1.idle_pct, u2.idle_pct);
      pct_row("Exposed Communication %", u1.comm_pct, u2.comm_pct);
      out_ << "| Top Bottleneck Category | " << top_cell(top1, u1) << " | "
           << top_cell(top_category_trace2(in_.manifest), u2) << " | " << kEmDash << " |\n\n";
    } else {
      out_ << "| Metric | Value |\n|--------|-------|\n";
      out_ << "| Total Time | " << fixed_or_dash(u1.total_ms, 3, " ms") << " |\n";
      out_ << "| Compute % | " << fixed_or_dash(u1.compute_pct, 1, "%") << " |\n";
      out_ << "| Idle % | " << fixed_or_dash(u1.idle_pct, 1, "%") << " |\n";
      out_ << "| Exposed Communication % | " << fixed_or_dash(u1.comm_pct, 1, "%") << " |\n";
      out_ << "| Top Bottleneck Category | " << top_cell(top1, u1) << " |\n\n";
    }
    if (!in_.plot_file.empty()) {
      out_ << "![Performance Breakdown](" << in_.plot_file << ")\n\n";
    }
  }

  void warnings() {
    std::vector<const ReportCategory*> failed;
    for (const auto& c : in_.categories) {
      if (c.status == findings::Status::Error) failed.push_back(&c);
    }
    if (failed.empty() && in_.unhandled.empty() && in_.high_variance.empty()) return;
    out_ << "## Warnings\n\n";
    if (!failed.empty() || !in_.unhandled.empty()) {
      out_ << "The following analyses could not be completed:\n\n";
      out_ << "| Analysis | Tier | Error Summary |\n|----------|------|---------------|\n";
      for (const auto* c : failed) {
        out_ << "| " << c->category
             << (c->contributing ? " (contribution of " + c->plugin + ")" : std::string()) << " | "
             << (c->tier == Tier::System ? "System" : "Compute Kernel") << " | "
             << table_text(c->message.empty() ? "ERROR" : c->message) << " |\n";
      }
      for (const auto& u : in_.unhandled) {
        const Json* mc = manifest_category(in_.manifest, u);
        const bool system = mc != nullptr && text_at(*mc, "tier") == "system";
        out_ << "| " << u << " | " << (system ? "System" : "Compute Kernel")
             << " | no analyzer plugin handles this category |\n";
      }
      out_ << "\nThese are excluded from the recommendations below.\n\n";
    }
    if (!in_.high_variance.empty()) {
      out_ << "**Data Quality:** The following operations have unreliable kernel time "
              "measurements (CoV > 1.0: extreme variance across instances, likely a profiler "
              "timing artifact):\n\n";
      out_ << "| Operation | Category | CoV | Reported Time (ms) |\n"
              "|-----------|----------|-----|-------------------|\n";
      for (const auto& h : in_.high_variance) {
        out_ << "| " << table_text(h.operation) << " | " << h.category << " | " << fixed(h.cov, 3)
             << " | " << fixed(h.time_ms, 3) << " |\n";
      }
      out_ << "\n";
    }
    out_ << "---\n\n";
  }

  static std::string table_text(const std::string& s) {
    std::string out;
    for (const char c : s) {
      if (c == '|') {
        out += "\\|";
      } else if (c == '\n' || c == '\r') {
        out += ' ';
      } else {
        out += c;
      }
    }
    return out;
  }

  // The card body without the analyzer's own impact block (compute cards get the
  // priority_data one).
  static std::vector<std::string> without_impact(const std::vector<std::string>& body) {
    std::vector<std::string> out;
    bool in_impact = false;
    for (const auto& line : body) {
      if (line.rfind("<!-- impact-begin", 0) == 0) {
        in_impact = true;
        continue;
      }
      if (in_impact) {
        if (line.rfind("<!-- impact-end", 0) == 0) in_impact = false;
        continue;
      }
      out.push_back(line);
    }
    return out;
  }

  void compute_section() {
    out_ << "## Compute Kernel Optimizations\n\n";
    out_ << "Findings from per-category kernel analysis (GEMM, SDPA, elementwise, ...), one "
            "item per entry of `priority_data.json` `findings[]`, in its order.\n\n";
    top_operations();
    if (compute_.empty()) {
      out_ << kCheck
           << " No compute kernel optimization opportunities identified. All categories are "
              "within target performance bounds.\n\n---\n\n";
      return;
    }
    const auto baseline = number_at(in_.priority_data, "baseline_ms");
    for (size_t i = 0; i < compute_.size(); ++i) {
      const auto& sc = compute_[i];
      const Json& f = *compute_findings_[i];
      const size_t n = i + 1;
      const auto [shown, suffix] = label(sc, n);
      out_ << "### " << icon_for_priority(n) << " P" << shown << ": " << sc.card.title << suffix
           << "\n\n";
      parts_note(shown, suffix);
      for (const auto& line : without_impact(sc.card.body)) {
        if (line.rfind("**Impact**", 0) == 0) continue;
        out_ << line << "\n";
        if (!line.empty()) out_ << "\n";
      }
      const Json* mid = f.find("impact_score");
      out_ << "<!-- impact-begin kind=p_item category=" << text_at(f, "category")
           << " low=" << marker_number(f.find("impact_score_low")) << " mid=" << marker_number(mid)
           << " high=" << marker_number(f.find("impact_score_high")) << " -->\n";
      const auto m = number_of(mid);
      if (m) {
        out_ << "**Impact**: impact_score: " << fixed(*m, 2);
        if (const RunFinding* ranked = ranked_finding(sc); ranked != nullptr) {
          // Default mode: the figure findings.json, the terminal and report.html show.
          if (ranked->saving_ms && baseline) {
            out_ << " (" << fixed(ranked->saving_ms->mid, 3) << " ms of " << fixed(*baseline, 3)
                 << " ms E2E after the time ledger, "
                 << (ranked->evidence ? findings::to_string(*ranked->evidence) : "") << ")";
          }
        } else if (baseline) {
          out_ << " (" << fixed(*m / 100.0 * *baseline, 3) << " ms of " << fixed(*baseline, 3)
               << " ms E2E, estimated)";
        }
        out_ << "\n";
      } else {
        out_ << "**Impact**: Not quantifiable from trace data\n";
      }
      out_ << "<!-- impact-end -->\n\n";
      out_ << kArrow << " *See [Detailed Analysis: Compute kernel insights > P" << shown
           << "](#detailed-analysis-compute-p" << n << ") for details*\n\n---\n\n";
    }
  }

  void top_operations() {
    out_ << "### Top Operations\n\n";
    const Utilization u1 = utilization(in_.manifest, "gpu_utilization");
    const auto compute_ms = u1.compute_ms();
    out_ << "<!-- impact-begin kind=top_ops -->\n";
    if (comparative_) {
      out_ << "| Rank | Category | Trace 1 Time (ms) | Trace 2 Time (ms) | % of Compute Time | "
              "Ops | Difference (ms) |\n"
              "|------|----------|-------------------|-------------------|-------------------|"
              "-----|-----------------|\n";
    } else {
      out_ << "| Rank | Category | Time (ms) | % of Compute Time | Ops |\n"
              "|------|----------|-----------|-------------------|-----|\n";
    }
    for (const auto& p : array_at(in_.priority_data, "priorities")) {
      const std::string category = text_at(p, "category");
      const Json* mc = manifest_category(in_.manifest, category);
      const Json* time = mc == nullptr ? nullptr : mc->find("gpu_kernel_time_ms");
      const Json* ops = mc == nullptr ? nullptr : mc->find("ops_count");
      std::string share = kEmDash;
      if (const auto t = number_of(time); t && compute_ms && *compute_ms > 0) {
        share = fixed(*t / *compute_ms * 100.0, 1) + "%";
      }
      std::string name = text_at(p, "display_name");
      if (name.empty()) name = category;
      out_ << "| " << verbatim(p.find("rank")) << " | " << name << " | " << verbatim(time);
      if (comparative_) {
        std::optional<double> t2;
        for (const auto& row : array_at(in_.manifest, "trace2_ops_summary_by_category")) {
          if (text::ascii_lower(text_at(row, "op category")) == text::ascii_lower(name) ||
              text::ascii_lower(text_at(row, "op category")) == text::ascii_lower(category)) {
            t2 = number_at(row, "total_direct_kernel_time_ms");
            break;
          }
        }
        const auto t1 = number_of(time);
        out_ << " | " << (t2 ? py::float_repr(*t2) : std::string(kEmDash)) << " | " << share
             << " | " << verbatim(ops) << " | "
             << (t1 && t2 ? signed_fixed(*t2 - *t1, 3) : std::string(kEmDash));
      } else {
        out_ << " | " << share << " | " << verbatim(ops);
      }
      const bool fallback = text_at(p, "source") == "manifest_fallback";
      out_ << " | <!-- top-ops-row low="
           << (fallback ? "null" : marker_number(p.find("impact_score_low")))
           << " high=" << (fallback ? "null" : marker_number(p.find("impact_score_high")))
           << " -->\n";
    }
    out_ << "<!-- impact-end -->\n\n";
  }

  // Fusion and system cards keep the analyzer's body (impact block included).
  void styled_cards(const std::vector<StyledCard>& cards, std::string_view anchor,
                    std::string_view section, bool fusion) {
    for (size_t i = 0; i < cards.size(); ++i) {
      const size_t n = i + 1;
      const auto& sc = cards[i];
      const char* icon = icon_for_priority(n);
      if (fusion) icon = confidence_icon(card_field(sc.card, "Confidence"));
      const auto [shown, suffix] = label(sc, n);
      out_ << "### " << icon << " P" << shown << ": " << sc.card.title << suffix << "\n\n";
      parts_note(shown, suffix);
      std::string pending;  // a line to write after the impact block
      for (const auto& line : sc.card.body) {
        std::string text = line;
        std::string moved;  // what the comparative Impact line cannot hold
        if (fusion && comparative_ && text.rfind("**Impact**", 0) == 0) {
          // The comparative fusion Impact line is "impact_score: X" alone (no perf-model
          // coverage parenthetical); the estimated saving goes on its own line.
          const auto score = text.find("impact_score:");
          if (score != std::string::npos) {
            size_t end = text.find_first_not_of(" ", score + 13);
            end =
                end == std::string::npos ? text.size() : text.find_first_not_of("0123456789.", end);
            if (end != std::string::npos && end < text.size()) {
              std::string rest = text.substr(end);
              text.erase(end);
              if (const auto saving = rest.find("estimated saving"); saving != std::string::npos) {
                moved = "Estimated saving: " + rest.substr(saving + 17);
              }
            }
          }
        }
        out_ << text << "\n";
        const bool marker = text.rfind("<!-- impact-begin", 0) == 0;
        if (!text.empty() && !marker && text.rfind("**Impact**", 0) != 0) out_ << "\n";
        if (text.rfind("<!-- impact-end", 0) == 0) {
          out_ << "\n";
          if (!pending.empty()) out_ << pending << "\n\n";
          pending.clear();
        }
        if (!moved.empty()) pending = std::move(moved);
      }
      out_ << kArrow << " *See [Detailed Analysis: " << section << " > P" << shown << "](#"
           << anchor << n << ") for details*\n\n---\n\n";
    }
  }

  static const char* confidence_icon(const std::string& confidence) {
    const std::string c = text::ascii_lower(confidence);
    if (c.rfind("high", 0) == 0) return kRed;
    if (c.rfind("medium", 0) == 0) return kYellow;
    return kGreen;
  }

  void fusion_section() {
    out_ << "## Kernel Fusion Opportunities (Experimental)\n\n";
    if (comparative_) {
      out_ << "> **Note:** Kernel fusion analysis is experimental.\n\n";
    } else {
      out_ << "> **Note:** Kernel fusion analysis is experimental. impact_score projections "
              "estimate the recoverable fraction of E2E with 85% memory/compute pipeline "
              "overlap. Kernels without perf models use their measured trace time as-is. "
              "Actual recoverable time depends on implementation feasibility and interaction "
              "effects.\n\n";
    }
    if (fusion_.empty()) {
      out_ << "No kernel fusion opportunities detected.\n\n---\n\n";
      return;
    }
    styled_cards(fusion_, "detailed-analysis-fusion-P", "Kernel fusion insights", true);
  }

  void system_section() {
    out_ << "## System-Level Optimizations\n\n";
    out_ << "> **Note:** System-level analysis is exploratory.\n\n";
    if (comparative_) {
      out_ << "> **Comparative Note:** System-level analysis is performed on the primary trace "
              "(Trace 1) only.\n\n";
    }
    out_ << "Findings from system-level analysis (GPU idle time, memory transfer patterns, "
            "communication/compute overlap). These affect the GPU pipeline as a whole.\n\n";
    if (system_.empty()) {
      const Utilization u1 = utilization(in_.manifest, "gpu_utilization");
      out_ << kCheck << " No system-level bottlenecks detected. GPU activity breakdown shows "
           << fixed_or_dash(u1.compute_pct, 1, "%") << " computation, "
           << fixed_or_dash(u1.idle_pct, 1, "%") << " idle.\n\n---\n\n";
      return;
    }
    styled_cards(system_, "detailed-analysis-system-p", "System-level insights", false);
  }

  void detail(const StyledCard& sc, size_t n, std::string_view tier, std::string_view anchor,
              const char* icon) {
    out_ << "<a id=\"" << anchor << n << "\"></a>\n";
    out_ << "<!-- reasoning-candidate tier=" << tier << " rank=" << n << " -->\n";
    const auto [shown, suffix] = label(sc, n);
    out_ << "#### " << icon << " P" << shown << ": " << sc.card.title << suffix << "\n";
    if (sc.detail != nullptr) {
      for (const auto& line : sc.detail->body) out_ << line << "\n";
    } else {
      out_ << "**Identification:** see `" << (sc.category ? sc.category->findings_path : "")
           << "`.\n\n**Impact estimate:** Not quantifiable from trace data\n";
    }
    out_ << "\n";
  }

  void detailed_analysis() {
    out_ << "## Detailed Analysis\n\n### Compute Kernel Insights\n\n";
    if (compute_.empty()) {
      out_ << kCheck
           << " No compute kernel optimization opportunities identified. All categories are "
              "within target performance bounds.\n\n";
    }
    for (size_t i = 0; i < compute_.size(); ++i) {
      detail(compute_[i], i + 1, "compute", "detailed-analysis-compute-p",
             icon_for_priority(i + 1));
    }
    out_ << "### Kernel Fusion Insights\n\n";
    if (fusion_.empty()) out_ << "No fusion impact estimates available.\n\n";
    for (size_t i = 0; i < fusion_.size(); ++i) {
      detail(fusion_[i], i + 1, "fusion", "detailed-analysis-fusion-P",
             confidence_icon(card_field(fusion_[i].card, "Confidence")));
    }
    out_ << "### System-Level Insights\n\n";
    if (system_.empty()) out_ << kCheck << " No system-level bottlenecks detected.\n\n";
    for (size_t i = 0; i < system_.size(); ++i) {
      detail(system_[i], i + 1, "system", "detailed-analysis-system-p", icon_for_priority(i + 1));
    }
    out_ << "---\n\n";
  }

  void appendix() {
    out_ << "## Appendix\n\n### Model Architecture\n";
    out_ << "- **Model**: " << in_.model.model << "\n";
    out_ << "- **Architecture**: " << in_.model.architecture << "\n";
    out_ << "- **Scale**: " << in_.model.scale << "\n";
    out_ << "- **Precision**: " << in_.model.precision << "\n";
    if (!in_.model.evidence.empty()) {
      out_ << "- **Evidence** (`metadata/model_info.json`):";
      for (size_t i = 0; i < in_.model.evidence.size(); ++i) {
        out_ << (i == 0 ? " " : "; ") << in_.model.evidence[i];
      }
      out_ << "\n";
    }
    out_ << "\n";
    out_ << "### Hardware Reference\n";
    out_ << "- **Platform**: " << platform() << "\n";
    const auto& p = in_.platform;
    out_ << "- **Peak HBM BW**: " << fixed_or_dash(p.hbm_tb_per_s, 2, " TB/s") << "\n";
    out_ << "- **Peak MAF (BF16)**: " << fixed_or_dash(p.bf16_tflops, 0, " TFLOPS") << "\n";
    if (p.fp8_tflops) out_ << "- **Peak MAF (FP8)**: " << fixed(*p.fp8_tflops, 0) << " TFLOPS\n";
    if (p.fp4_tflops) out_ << "- **Peak MAF (FP4)**: " << fixed(*p.fp4_tflops, 0) << " TFLOPS\n";
  }
};

}  // namespace

std::string build_analysis_report(const AnalysisReportInput& input) {
  return ReportWriter(input).write();
}

}  // namespace loupe::core
