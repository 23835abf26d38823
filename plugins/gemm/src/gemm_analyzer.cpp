#include "gemm_analyzer.hpp"

#include "gemm_category_specific.hpp"
#include "gemm_prose.hpp"
#include "gemm_shape.hpp"

namespace loupe::gemm {

namespace {

void annotate_dims(const compute::CategoryInputs& inputs, size_t row, Json& operation) {
  const auto params = inputs.text(row, "perf_params");
  if (!params) return;
  if (const auto dims = dims_from_perf_params(*params)) operation["gemm_dims"] = dims_json(*dims);
}

}  // namespace

compute::AnalysisOptions gemm_analysis_options(const compute::CategoryRunOptions& options) {
  compute::AnalysisOptions analysis;
  analysis.category = options.category;
  analysis.comparative = options.comparative;
  analysis.tracelens_compat = options.tracelens_compat;
  analysis.extra_fields = {"Input Dims", "Input type", "has_perf_model"};
  analysis.extra_field_kinds = {{"has_perf_model", compute::ExtraFieldKind::Bool}};
  analysis.operation_classifier = [](const compute::CategoryInputs& inputs, size_t row) {
    return classify_gemm(inputs.text(row, "name").value_or("nan"));
  };
  analysis.category_specific = &gemm_category_specific;
  if (!options.tracelens_compat) analysis.annotate_operation = &annotate_dims;
  return analysis;
}

compute::CategoryRun run_gemm_analysis(const ModelView& model,
                                       const compute::CategoryRunOptions& options) {
  const compute::AnalysisOptions analysis = gemm_analysis_options(options);
  const compute::CategoryInputs inputs(model, options.category);
  const GemmProse prose(!options.tracelens_compat);
  return compute::run_category(inputs, analysis, prose);
}

}  // namespace loupe::gemm
