#include "moe_analyzer.hpp"

#include "loupe/compute/efficiency.hpp"
#include "moe_prose.hpp"

namespace loupe::moe {

namespace {

Json moe_category_specific(const compute::CategoryInputs& inputs) {
  Json block = Json::object();
  compute::append_peak_specs(block, inputs.metadata());
  return block;
}

}  // namespace

Json moe_no_data_metrics(const std::string& category, bool comparative) {
  Json m = Json::object();
  m["category"] = category;
  m["status"] = "NO_DATA";
  m["comparison_scope"] = comparative ? "comparative" : "standalone";
  m["message"] = "No MoE operations detected in this trace (" + category + " bucket)";
  m["total_time_ms"] = 0;
  m["percent_of_compute"] = 0;
  m["operation_count"] = 0;
  m["operations"] = Json::array();
  m["category_specific"] = Json::object();
  // Not in TraceLens's document: Loupe's validator needs an empty category_findings to accept
  // the empty findings file (docs/deviations.md, MoE analyzer).
  m["category_findings"] = Json::array();
  return m;
}

compute::AnalysisOptions moe_analysis_options(const compute::CategoryRunOptions& options) {
  compute::AnalysisOptions analysis;
  analysis.category = options.category;
  analysis.comparative = options.comparative;
  analysis.tracelens_compat = options.tracelens_compat;
  analysis.category_specific = &moe_category_specific;
  return analysis;
}

compute::CategoryRun run_moe_analysis(const ModelView& model,
                                      const compute::CategoryRunOptions& options) {
  const compute::CategoryInputs inputs(model, options.category);
  const compute::AnalysisOptions analysis = moe_analysis_options(options);
  const MoeProse prose(!options.tracelens_compat);
  if (options.tracelens_compat && inputs.problem() == compute::InputProblem::CsvMissing) {
    // TraceLens checks for the MoE CSV before anything else: no CSV is NO_DATA, not ERROR.
    compute::CategoryRun run;
    run.analysis.status = compute::AnalysisStatus::NoData;
    run.analysis.message = inputs.problem_message();
    run.analysis.metrics = moe_no_data_metrics(options.category, options.comparative);
    run.findings = compute::findings_for(run.analysis, analysis, prose);
    return run;
  }
  return compute::run_category(inputs, analysis, prose);
}

}  // namespace loupe::moe
