// analysis.md: the run's report a person reads first, filled deterministically from the
// analysis template (docs/report.md, "analysis.md"): executive summary and metrics table,
// compute-kernel P-items in priority_data order, kernel-fusion and system-level cards, the
// analyzers' detailed blocks joined to the cards, warnings for what failed, and the appendix
// with the model and the platform.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "loupe/core/report/model_info.hpp"
#include "loupe/core/report/run_finding.hpp"
#include "loupe/findings.hpp"
#include "loupe/json_value.hpp"
#include "loupe/vocabulary.hpp"

namespace loupe::core {

inline constexpr const char* kAnalysisReportFile = "analysis.md";

// One analyzed category as the report sees it.
struct ReportCategory {
  std::string category;
  Tier tier = Tier::Compute;
  std::string style;  // the findings document's style: compute | system | fusion ("" if none)
  findings::Status status = findings::Status::Error;
  std::string message;        // why, for ERROR / NO_DATA
  std::string findings_path;  // relative to the output directory
  std::string markdown;       // the rendered findings file ("" when there is none)
  // A contributing analyzer's findings (docs/plugin-abi.md, "Contributing analyzers"): shown in
  // their own section with the plugin's name and version, numbered from findings.json.
  bool contributing = false;
  std::string plugin;
  std::string plugin_version;
};

struct PlatformPeaks {
  std::string name;
  std::optional<double> hbm_tb_per_s;
  std::optional<double> bf16_tflops;
  std::optional<double> fp8_tflops;
  std::optional<double> fp4_tflops;
};

// An operation whose kernel times vary too much to be trusted (metrics operations[].high_variance).
struct HighVarianceOperation {
  std::string operation;
  std::string category;
  double cov = 0.0;
  double time_ms = 0.0;
};

struct AnalysisReportInput {
  Scope scope = Scope::Standalone;
  Json manifest;                           // category_manifest.json
  Json priority_data;                      // priority_data.json as written
  std::vector<ReportCategory> categories;  // in execution order
  std::vector<std::string> unhandled;      // manifest categories no plugin handles
  ModelInfo model;
  PlatformPeaks platform;
  std::vector<HighVarianceOperation> high_variance;
  std::string plot_file;  // the plot to show under the summary ("" for none)
  Json serving;           // findings.json's `serving` block (null: no section)
  // Default mode: findings.json's findings, whose priorities number every item (one numbering
  // for the terminal, findings.json, report.html and analysis.md); none in compat mode.
  std::optional<RunFindings> run_findings;
  Json recording;  // findings.json's `recording` block (null: no section)
  Json steps;      // findings.json's `steps` block (null: no section)
  Json memory;     // findings.json's `memory` block (null: no section)
};

std::string build_analysis_report(const AnalysisReportInput& input);

}  // namespace loupe::core
