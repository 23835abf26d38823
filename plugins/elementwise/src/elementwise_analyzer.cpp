#include "elementwise_analyzer.hpp"

#include "elementwise_prose.hpp"
#include "loupe/compute/efficiency.hpp"

namespace loupe::elementwise {

namespace {

Json elementwise_category_specific(const compute::CategoryInputs& inputs) {
  Json block = Json::object();
  block["peak_hbm_bw_tbs"] = compute::metadata_member(inputs.metadata(), "peak_hbm_bw_tbs");
  return block;
}

}  // namespace

compute::AnalysisOptions elementwise_analysis_options(const compute::CategoryRunOptions& options) {
  compute::AnalysisOptions analysis;
  analysis.category = options.category;
  analysis.comparative = options.comparative;
  analysis.tracelens_compat = options.tracelens_compat;
  analysis.extra_fields = {"Input Dims", "Input type", "FLOPS/Byte"};
  analysis.extra_field_kinds = {{"FLOPS/Byte", compute::ExtraFieldKind::Number}};
  analysis.category_specific = &elementwise_category_specific;
  return analysis;
}

compute::CategoryRun run_elementwise_analysis(const ModelView& model,
                                              const compute::CategoryRunOptions& options) {
  const compute::CategoryInputs inputs(model, options.category);
  const ElementwiseProse prose(!options.tracelens_compat);
  return compute::run_category(inputs, elementwise_analysis_options(options), prose);
}

}  // namespace loupe::elementwise
