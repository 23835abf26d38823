#include "loupe/compute/category_run.hpp"

#include "loupe/compute/savings.hpp"

namespace loupe::compute {

findings::Document findings_for(const AnalysisResult& analysis, const AnalysisOptions& options,
                                const FindingsProse& prose) {
  if (analysis.status == AnalysisStatus::Error) {
    return build_error_findings(options.category, options.comparative, prose, analysis.message);
  }
  findings::Document doc =
      build_compute_findings(analysis.metrics, options.category, options.comparative, prose);
  const Json* list = analysis.metrics.find("category_findings");
  if (list == nullptr || !list->is_array()) return doc;
  for (size_t i = 0; i < doc.recommendations.size() && i < list->size(); ++i) {
    append_savings_to_card(doc.recommendations[i], list->as_array()[i]);
  }
  return doc;
}

CategoryRun run_category(const CategoryInputs& inputs, const AnalysisOptions& options,
                         const FindingsProse& prose) {
  CategoryRun run;
  run.analysis = analyze_category(inputs, options);
  if (run.analysis.status == AnalysisStatus::Ok && !options.tracelens_compat) {
    add_savings_to_findings(run.analysis.metrics);
  }
  run.findings = findings_for(run.analysis, options, prose);
  return run;
}

}  // namespace loupe::compute
