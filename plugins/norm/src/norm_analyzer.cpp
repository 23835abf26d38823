#include "norm_analyzer.hpp"

#include "loupe/compute/efficiency.hpp"
#include "norm_prose.hpp"

namespace loupe::norm {

namespace {

Json norm_category_specific(const compute::CategoryInputs& inputs) {
  Json block = Json::object();
  block["peak_hbm_bw_tbs"] = compute::metadata_member(inputs.metadata(), "peak_hbm_bw_tbs");
  return block;
}

}  // namespace

compute::AnalysisOptions norm_analysis_options(const compute::CategoryRunOptions& options) {
  compute::AnalysisOptions analysis;
  analysis.category = options.category;
  analysis.comparative = options.comparative;
  analysis.tracelens_compat = options.tracelens_compat;
  analysis.category_specific = &norm_category_specific;
  return analysis;
}

compute::CategoryRun run_norm_analysis(const ModelView& model,
                                       const compute::CategoryRunOptions& options) {
  const compute::CategoryInputs inputs(model, options.category);
  const NormProse prose(!options.tracelens_compat);
  return compute::run_category(inputs, norm_analysis_options(options), prose);
}

}  // namespace loupe::norm
