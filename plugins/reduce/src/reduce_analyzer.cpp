#include "reduce_analyzer.hpp"

#include "loupe/compute/efficiency.hpp"
#include "reduce_prose.hpp"

namespace loupe::reduce {

Json reduce_category_specific(const compute::CategoryInputs& inputs) {
  std::int64_t softmax = 0;
  for (size_t r = 0; r < inputs.rows(); ++r) {
    // TraceLens applies str() to the name, so an empty cell is the text "nan".
    if (is_softmax(inputs.text(r, "name").value_or("nan"))) ++softmax;
  }
  Json block = Json::object();
  block["softmax_count"] = softmax;
  block["peak_hbm_bw_tbs"] = compute::metadata_member(inputs.metadata(), "peak_hbm_bw_tbs");
  return block;
}

compute::AnalysisOptions reduce_analysis_options(const compute::CategoryRunOptions& options) {
  compute::AnalysisOptions analysis;
  analysis.category = options.category;
  analysis.comparative = options.comparative;
  analysis.tracelens_compat = options.tracelens_compat;
  analysis.category_specific = &reduce_category_specific;
  return analysis;
}

compute::CategoryRun run_reduce_analysis(const ModelView& model,
                                         const compute::CategoryRunOptions& options) {
  const compute::CategoryInputs inputs(model, options.category);
  const ReduceProse prose(!options.tracelens_compat);
  return compute::run_category(inputs, reduce_analysis_options(options), prose);
}

}  // namespace loupe::reduce
