// The few lines every compute-category plugin's analyze() would otherwise repeat: the host's
// request as run options, and the run handed back (warnings and errors logged, metrics and
// findings emitted).
//
//   void analyze(loupe::AnalysisContext& ctx) {
//     loupe::compute::emit_category_run(
//         ctx, run_my_analysis(ctx.model(), loupe::compute::run_options(ctx)));
//   }
#pragma once

#include <string>

#include "loupe/compute/category_run.hpp"
#include "loupe/plugin.hpp"

namespace loupe::compute {

// Any options struct with category, comparative and tracelens_compat members.
template <class Options = CategoryRunOptions>
Options run_options(const AnalysisContext& ctx) {
  Options options;
  options.category = std::string(ctx.category());
  options.comparative = ctx.comparative();
  options.tracelens_compat = ctx.tracelens_compat();
  return options;
}

// Any run with `analysis` (an AnalysisResult) and `findings` (a findings::Document).
template <class Run>
void emit_category_run(AnalysisContext& ctx, const Run& run) {
  for (const auto& warning : run.analysis.warnings) ctx.log(LogLevel::Warn, warning);
  if (run.analysis.status == AnalysisStatus::Error) {
    ctx.log(LogLevel::Error, "Error: " + run.analysis.message);
  }
  ctx.emit_metrics(run.analysis.metrics);
  ctx.emit_findings(run.findings);
}

}  // namespace loupe::compute
