#include "loupe/core/report/html_report.hpp"

#include <cstdio>
#include <optional>
#include <sstream>

#include "loupe/core/report/memory_report.hpp"
#include "loupe/core/report/recording_report.hpp"
#include "loupe/core/report/steps_report.hpp"
#include "loupe/core/util/text_escape.hpp"
#include "loupe/python_format.hpp"
#include "report_text.hpp"

namespace loupe::core {

namespace {

using report_detail::fixed;
using report_detail::fixed_or_dash;
using report_detail::number_at;
using report_detail::text_at;

std::string h(const std::string& s) { return escape_markup(s); }

// Escaped text with `code` spans as <code>.
std::string inline_text(const std::string& s) {
  std::string out;
  bool code = false;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == '`') {
      out += h(s.substr(start, i - start));
      if (i < s.size()) out += code ? "</code>" : "<code>";
      code = !code;
      start = i + 1;
    }
  }
  if (!code) out += "</code>";  // an unbalanced backtick opened a span: close it
  return out;
}

constexpr const char* kStyle = R"(
body{font-family:Helvetica,Arial,sans-serif;margin:0;background:#f4f6f8;color:#1f2d3d}
header{background:#1f2d3d;color:#fff;padding:18px 32px}
header h1{margin:0;font-size:22px}
header p{margin:4px 0 0;color:#c9d3dd;font-size:13px}
main{max-width:1040px;margin:0 auto;padding:16px 32px 40px}
section{background:#fff;border-radius:6px;padding:16px 20px;margin:16px 0;box-shadow:0 1px 2px rgba(0,0,0,.08)}
h2{font-size:18px;margin:0 0 12px}
table{border-collapse:collapse;width:100%;font-size:13px}
th,td{border-bottom:1px solid #e3e8ee;padding:6px 8px;text-align:left;vertical-align:top}
th{background:#f0f3f6}
td.num{text-align:right;font-variant-numeric:tabular-nums}
.card{border-left:5px solid #3498db;padding:10px 14px;margin:10px 0;background:#fafbfc}
.card.p1{border-color:#e74c3c}.card.p2{border-color:#f1c40f}.card.p3{border-color:#2ecc71}
.card h3{font-size:15px;margin:0 0 6px}
.card .saving{font-weight:bold;color:#c0392b}
.card p{margin:4px 0;font-size:13px}
.meta{color:#5a6b7b;font-size:12px}
code{background:#eef1f4;padding:0 3px;border-radius:3px;font-size:12px}
.warn{border-left:5px solid #e67e22;background:#fff8ef}
svg{max-width:100%;height:auto}
ul.files{columns:2;font-size:13px}
)";

}  // namespace

std::string build_html_report(const AnalysisReportInput& in, const RunFindings& run_findings,
                              const std::string& plot_svg,
                              const std::vector<std::string>& csv_files) {
  const bool comparative = in.scope == Scope::Comparative;
  const std::string platform = text_at(in.manifest, "platform").empty()
                                   ? in.platform.name
                                   : text_at(in.manifest, "platform");
  const std::string model = in.model.model == kCannotInfer ? "Workload" : in.model.model;
  const std::string title =
      model + " - " + platform + (comparative ? " Comparative Analysis" : " Standalone Analysis");
  std::ostringstream o;
  o << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    << "<title>" << h(title) << "</title>\n<style>" << kStyle << "</style>\n</head>\n<body>\n";
  o << "<header><h1 id=\"title\">" << h(title) << "</h1><p>Written by Loupe from this run's "
    << "outputs. Times are measured; savings are estimates. The full report is "
    << "<a style=\"color:#fff\" href=\"analysis.md\">analysis.md</a>.</p></header>\n<main>\n";

  // Executive summary.
  const Json* util = in.manifest.find("gpu_utilization");
  const size_t count = run_findings.findings.size();
  o << "<section id=\"summary\"><h2>Executive Summary</h2>\n<table class=\"metrics\">\n";
  o << "<tr><th>Metric</th><th>" << (comparative ? "Trace 1" : "Value") << "</th>";
  const Json* util2 = in.manifest.find("trace2_gpu_utilization");
  if (comparative) o << "<th>Trace 2</th>";
  o << "</tr>\n";
  auto row = [&](const char* name, const char* key, int digits, const char* unit) {
    o << "<tr><td>" << name << "</td><td class=\"num\">"
      << fixed_or_dash(number_at(util, key), digits, unit) << "</td>";
    if (comparative) {
      o << "<td class=\"num\">" << fixed_or_dash(number_at(util2, key), digits, unit) << "</td>";
    }
    o << "</tr>\n";
  };
  row("Total Time", "total_time_ms", 3, " ms");
  row("Compute %", "computation_time_percent", 1, "%");
  row("Idle %", "idle_time_percent", 1, "%");
  row("Exposed Communication %", "exposed_comm_time_percent", 1, "%");
  row("Exposed Memcpy %", "exposed_memcpy_time_percent", 1, "%");
  o << "<tr><td>Findings</td><td class=\"num\" id=\"finding-count\">" << count << "</td>"
    << (comparative ? "<td></td>" : "") << "</tr>\n</table>\n";
  o << "<p class=\"meta\">Model: " << h(in.model.model) << " &middot; " << h(in.model.architecture)
    << " &middot; scale " << h(in.model.scale) << " &middot; precision " << h(in.model.precision)
    << "</p>\n</section>\n";

  // Failed categories.
  bool any_failed = !in.unhandled.empty();
  for (const auto& c : in.categories) any_failed |= c.status == findings::Status::Error;
  if (any_failed) {
    o << "<section class=\"warn\" id=\"warnings\"><h2>Warnings</h2><ul>\n";
    for (const auto& c : in.categories) {
      if (c.status != findings::Status::Error) continue;
      o << "<li><b>" << h(c.category) << "</b> could not be analyzed: " << h(c.message)
        << "</li>\n";
    }
    for (const auto& u : in.unhandled) {
      o << "<li><b>" << h(u) << "</b>: no analyzer plugin handles this category</li>\n";
    }
    o << "</ul></section>\n";
  }

  o << recording_report_html(in.recording);
  o << steps_report_html(in.steps);
  o << memory_report_html(in.memory);
  if (!plot_svg.empty()) {
    o << "<section id=\"plot\"><h2>GPU time by category</h2>\n";
    const auto start = plot_svg.find("<svg");
    o << (start == std::string::npos ? plot_svg : plot_svg.substr(start));
    o << "<p class=\"meta\">Also written as <a href=\"perf_breakdown.svg\">perf_breakdown.svg</a>."
      << "</p></section>\n";
  }

  // P-item cards: every finding of the run, ranked by its mid saving (findings.json).
  o << "<section id=\"findings\"><h2>What to fix first</h2>\n";
  if (count == 0) o << "<p id=\"no-findings\">No optimization opportunities identified.</p>\n";
  {
    const auto together = run_findings.combined_step_gain_ms;
    const auto sum = run_findings.combined_saving_sum_ms;
    if (together && sum && *sum > *together + 0.0005) {
      o << "<p id=\"combined\" class=\"meta\">Each saving is what its item would gain alone. "
           "Applied together, the step-checked items would shorten the run by "
        << fixed(*together, 3) << " ms (what-if), less than their sum of " << fixed(*sum, 3)
        << " ms.</p>\n";
    }
  }
  for (const RunFinding& f : run_findings.findings) {
    const long long n = f.priority;
    o << "<div class=\"card p" << (n <= 3 ? n : 3) << "\" id=\"" << h(f.id) << "\">\n";
    o << "<h3>P" << n << ": " << inline_text(f.title) << "</h3>\n";
    const auto pct = f.saving_percent_mid();
    o << "<p><span class=\"saving\">"
      << (f.saving_ms ? "Estimated saving " + fixed(f.saving_ms->mid, 3) + " ms" +
                            (pct ? " (" + fixed(*pct, 2) + "% of E2E)" : std::string())
                      : std::string("Saving not quantified"))
      << "</span> <span class=\"meta\">" << h(f.category) << " &middot; " << h(f.tier);
    // A contributing analyzer's card names its plugin (docs/plugin-abi.md).
    if (f.contributed) {
      o << " &middot; contributed by " << h(f.plugin) << " " << h(f.plugin_version.value_or(""));
    }
    o << "</span></p>\n";
    o << "<p><b>Insight:</b> " << inline_text(f.insight) << "</p>\n";
    o << "<p><b>Action:</b> " << inline_text(f.action) << "</p>\n";
    if (!f.parts.empty()) {
      o << "<p class=\"parts\"><b>Also covers</b> (merged by the time ledger: this item owns "
           "their kernels, whose time counts once):";
      std::string sep = " ";
      for (const MergedPart& part : f.parts) {
        o << sep << inline_text(part.title) << " (" << h(part.category) << ")";
        sep = "; ";
      }
      o << "</p>\n";
    }
    o << "<p class=\"meta\">Evidence ("
      << h(f.evidence ? findings::to_string(*f.evidence) : std::string()) << "):";
    for (const auto& file : f.source_files) {
      o << " <a href=\"" << h(file) << "\">" << h(file) << "</a>";
    }
    o << "</p>\n";
    o << "</div>\n";
  }
  o << "</section>\n";

  // Top operations: priority_data's priorities with the manifest's times.
  o << "<section id=\"top-ops\"><h2>Top Operations</h2>\n<table>\n<tr><th>Rank</th><th>Category"
    << "</th><th>Time (ms)</th><th>% of Compute Time</th><th>Ops</th><th>Projected saving "
    << "(% of E2E, low-high)</th></tr>\n";
  const auto compute_ms = [&]() -> std::optional<double> {
    const auto t = number_at(util, "total_time_ms");
    const auto c = number_at(util, "computation_time_percent");
    if (!t || !c) return std::nullopt;
    return *t * *c / 100.0;
  }();
  if (const Json* priorities = in.priority_data.find("priorities");
      priorities != nullptr && priorities->is_array()) {
    for (const auto& p : priorities->as_array()) {
      const std::string category = text_at(p, "category");
      const Json* mc = nullptr;
      if (const Json* cats = in.manifest.find("categories"); cats != nullptr && cats->is_array()) {
        for (const auto& c : cats->as_array()) {
          if (text_at(c, "name") == category) mc = &c;
        }
      }
      const auto time = number_at(mc, "gpu_kernel_time_ms");
      const auto ops = number_at(mc, "ops_count");
      std::string name = text_at(p, "display_name");
      if (name.empty()) name = category;
      const auto low = number_at(&p, "impact_score_low");
      const auto high = number_at(&p, "impact_score_high");
      o << "<tr class=\"top-op\"><td class=\"num\">" << fixed_or_dash(number_at(&p, "rank"), 0, "")
        << "</td><td>" << h(name) << "</td><td class=\"num\">" << fixed_or_dash(time, 3, "")
        << "</td><td class=\"num\">"
        << (time && compute_ms && *compute_ms > 0 ? fixed(*time / *compute_ms * 100.0, 1) + "%"
                                                  : std::string("\xE2\x80\x94"))
        << "</td><td class=\"num\">" << fixed_or_dash(ops, 0, "") << "</td><td class=\"num\">"
        << (low && high ? fixed(*low, 2) + " - " + fixed(*high, 2) : std::string("\xE2\x80\x94"))
        << "</td></tr>\n";
    }
  }
  o << "</table>\n</section>\n";

  o << "<section id=\"files\"><h2>Tables</h2>\n<ul class=\"files\">\n";
  for (const auto& f : csv_files) o << "<li><a href=\"" << h(f) << "\">" << h(f) << "</a></li>\n";
  o << "</ul>\n<p class=\"meta\">Also: <a href=\"analysis.md\">analysis.md</a>, "
    << "<a href=\"findings.json\">findings.json</a>, <a href=\"priority_data.json\">"
    << "priority_data.json</a>, <a href=\"metadata/model_info.json\">model_info.json</a>.</p>\n"
    << "</section>\n</main>\n</body>\n</html>\n";
  return o.str();
}

}  // namespace loupe::core
