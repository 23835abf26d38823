#include "generic_analyzer.hpp"

#include <algorithm>

#include "generic_category_specific.hpp"
#include "generic_prose.hpp"
#include "generic_sub_category.hpp"
#include "loupe/compute/findings_builder.hpp"
#include "loupe/compute/savings.hpp"

namespace loupe::generic {

namespace {

Json classification(const compute::CategoryInputs& inputs, size_t row) {
  Json c = Json::object();
  c["sub_category"] =
      sub_category_name(classify_sub_category(inputs.text(row, "name").value_or("nan")));
  return c;
}

// TraceLens's generic script writes a file-not-found ERROR without the scope.
void drop_scope_from_error(Json& metrics) {
  auto& members = metrics.as_object();
  members.erase(std::remove_if(members.begin(), members.end(),
                               [](const auto& m) { return m.first == "comparison_scope"; }),
                members.end());
}

}  // namespace

GenericRun run_generic_analysis(const ModelView& model, const GenericRunOptions& options) {
  compute::AnalysisOptions analysis;
  analysis.category = options.category;
  analysis.comparative = options.comparative;
  analysis.tracelens_compat = options.tracelens_compat;
  analysis.operation_classifier = &classification;
  analysis.keep_row = &keeps_row;
  const bool compat = options.tracelens_compat;
  analysis.category_specific = [compat](const compute::CategoryInputs& inputs) {
    return generic_category_specific(inputs, compat);
  };

  const compute::CategoryInputs inputs(model, options.category);
  GenericRun run;
  run.analysis = compute::analyze_category(inputs, analysis);
  const GenericProse prose;
  if (run.analysis.status == compute::AnalysisStatus::Error) {
    const auto problem = inputs.problem();
    if (compat && (problem == compute::InputProblem::CsvMissing ||
                   problem == compute::InputProblem::MetadataMissing)) {
      drop_scope_from_error(run.analysis.metrics);
    }
    run.findings = compute::build_error_findings(options.category, options.comparative, prose,
                                                 run.analysis.message);
    return run;
  }
  if (run.analysis.status == compute::AnalysisStatus::Ok) {
    const Json* block = run.analysis.metrics.find("category_specific");
    const Json* skipped = block == nullptr ? nullptr : block->find("communication_ops_skipped");
    if (skipped != nullptr) {
      run.console.push_back("Skipping " + compute::jnum(*skipped->find("count")) +
                            " communication kernel(s) \xE2\x80\x94 use TraceLens's NCCL Analyzer "
                            "instead.");
    }
  }
  if (!compat) compute::add_savings_to_findings(run.analysis.metrics);
  run.findings = compute::build_compute_findings(run.analysis.metrics, options.category,
                                                 options.comparative, prose);
  if (!compat) compute::append_savings_to_cards(run.findings, run.analysis.metrics);
  return run;
}

}  // namespace loupe::generic
