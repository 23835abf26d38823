#include "sdpa_analyzer.hpp"

#include "loupe/compute/findings_builder.hpp"
#include "loupe/compute/savings.hpp"
#include "sdpa_band_savings.hpp"
#include "sdpa_category_specific.hpp"
#include "sdpa_classification.hpp"
#include "sdpa_data_table.hpp"
#include "sdpa_library_rules.hpp"
#include "sdpa_prose.hpp"

namespace loupe::sdpa {

namespace {

// pandas reads the has_perf_model column as booleans; the compute library copies extra fields
// as text.
void has_perf_model_as_bool(Json& metrics) {
  if (metrics.find("operations") == nullptr) return;
  for (auto& op : metrics["operations"].as_array()) {
    const Json* v = op.find("has_perf_model");
    if (v == nullptr || !v->is_string()) continue;
    const std::string text = v->as_string();
    if (text == "True" || text == "False") op["has_perf_model"] = text == "True";
  }
}

}  // namespace

SdpaRun run_sdpa_analysis(const ModelView& model, const SdpaRunOptions& options) {
  const bool compat = options.tracelens_compat;
  compute::AnalysisOptions analysis;
  analysis.category = options.category;
  analysis.comparative = options.comparative;
  analysis.tracelens_compat = compat;
  analysis.extra_fields = {"Input Dims", "Input type", "has_perf_model", "perf_params",
                           "kernel_details_summary"};
  analysis.library_rules = sdpa_library_rules();
  analysis.operation_classifier = [compat](const compute::CategoryInputs& inputs, size_t row) {
    return sdpa_classification(inputs, row, compat);
  };
  analysis.category_specific = [compat](const compute::CategoryInputs& inputs) {
    return sdpa_category_specific(inputs, compat);
  };

  const compute::CategoryInputs inputs(model, options.category);
  SdpaRun run;
  run.analysis = compute::analyze_category(inputs, analysis);
  const SdpaProse prose;
  if (run.analysis.status == compute::AnalysisStatus::Error) {
    run.findings = compute::build_error_findings(options.category, options.comparative, prose,
                                                 run.analysis.message);
    return run;
  }
  has_perf_model_as_bool(run.analysis.metrics);
  if (!compat) {
    compute::add_savings_to_findings(run.analysis.metrics);
    const JsonView e2e = inputs.metadata()["gpu_utilization"]["total_time_ms"];
    apply_expected_band_savings(run.analysis.metrics, e2e.is_number() ? e2e.as_double() : 0.0);
  }
  run.findings = compute::build_compute_findings(run.analysis.metrics, options.category,
                                                 options.comparative, prose);
  if (!compat) compute::append_savings_to_cards(run.findings, run.analysis.metrics);
  add_paged_attention_columns(run.findings, run.analysis.metrics);
  return run;
}

}  // namespace loupe::sdpa
