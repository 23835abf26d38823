// report.html: the run's report as one self-contained page (inline CSS and SVG, no script, no
// network): executive summary, the time-by-category bar, the P-item cards of findings.json,
// the Top Operations table and links to the run's CSV tables (docs/report.md, "report.html").
#pragma once

#include <string>
#include <vector>

#include "loupe/core/report/analysis_report.hpp"
#include "loupe/json_value.hpp"

namespace loupe::core {

inline constexpr const char* kHtmlReportFile = "report.html";

// `plot_svg` is perf_breakdown.svg's text ("" for none); `csv_files` are paths relative to
// the output directory.
std::string build_html_report(const AnalysisReportInput& input, const RunFindings& run_findings,
                              const std::string& plot_svg,
                              const std::vector<std::string>& csv_files);

}  // namespace loupe::core
