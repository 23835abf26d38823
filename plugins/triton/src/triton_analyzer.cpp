#include "triton_analyzer.hpp"

#include "loupe/compute/efficiency.hpp"
#include "triton_prose.hpp"

namespace loupe::triton {

Json classify_triton(const std::string& op_name) {
  Json out = Json::object();
  out["kernel_type"] = triton_kernel_type(op_name);
  return out;
}

Json triton_category_specific(const compute::CategoryInputs& inputs) {
  std::int64_t counts[4] = {0, 0, 0, 0};
  const char* types[4] = {"pointwise", "reduction", "persistent", "other"};
  for (size_t r = 0; r < inputs.rows(); ++r) {
    // TraceLens applies str() to the name, so an empty cell is the text "nan".
    const std::string type = triton_kernel_type(inputs.text(r, "name").value_or("nan"));
    for (size_t i = 0; i < 4; ++i) {
      if (type == types[i]) ++counts[i];
    }
  }
  Json block = Json::object();
  for (size_t i = 0; i < 4; ++i) block[std::string(types[i]) + "_count"] = counts[i];
  compute::append_peak_specs(block, inputs.metadata());
  return block;
}

compute::AnalysisOptions triton_analysis_options(const compute::CategoryRunOptions& options) {
  compute::AnalysisOptions analysis;
  analysis.category = options.category;
  analysis.comparative = options.comparative;
  analysis.tracelens_compat = options.tracelens_compat;
  analysis.operation_classifier = [](const compute::CategoryInputs& inputs, size_t row) {
    return classify_triton(inputs.text(row, "name").value_or("nan"));
  };
  analysis.category_specific = &triton_category_specific;
  return analysis;
}

compute::CategoryRun run_triton_analysis(const ModelView& model,
                                         const compute::CategoryRunOptions& options) {
  const compute::CategoryInputs inputs(model, options.category);
  const TritonProse prose(!options.tracelens_compat);
  return compute::run_category(inputs, triton_analysis_options(options), prose);
}

}  // namespace loupe::triton
