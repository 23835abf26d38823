// The run-level report files written after the last analyzer (docs/report.md):
// metadata/model_info.json, perf_breakdown.svg, analysis.md and report.html, each written
// atomically and recorded in
// AnalyzeReport::report_files (loupe_run.json outputs) so that a rerun replaces it.
#pragma once

#include <filesystem>

#include "loupe/core/model/model.hpp"
#include "loupe/core/report/analysis_report.hpp"
#include "loupe/core/run/analysis_runner.hpp"

namespace loupe::core {

// What analysis.md is built from, gathered from the model and the finished run (the findings
// files as the run wrote them, held in memory: nothing is read back from disk).
AnalysisReportInput gather_report_input(const Model& model, const AnalyzeReport& report,
                                        const ModelInfo& model_info);

// Writes metadata/model_info.json (kept as the input has it in --compat tracelens),
// perf_breakdown.svg, analysis.md and report.html; a file that cannot be written is logged and
// left out of report_files.
void write_run_report(const Model& model, AnalyzeReport& report,
                      const std::filesystem::path& output_dir, Compat compat);

}  // namespace loupe::core
