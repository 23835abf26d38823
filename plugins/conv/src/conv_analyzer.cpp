#include "conv_analyzer.hpp"

#include "conv_category_specific.hpp"
#include "conv_corrections.hpp"
#include "conv_library_rules.hpp"
#include "conv_prose.hpp"
#include "loupe/compute/findings_builder.hpp"

namespace loupe::conv {

ConvRun run_conv_analysis(const ModelView& model, const ConvRunOptions& options) {
  compute::AnalysisOptions analysis;
  analysis.category = options.category;
  analysis.comparative = options.comparative;
  analysis.tracelens_compat = options.tracelens_compat;
  analysis.library_rules = conv_library_rules();
  analysis.category_specific = options.tracelens_compat ? &conv_category_specific_tracelens
                                                        : &conv_category_specific_corrected;

  const compute::CategoryInputs inputs(model, options.category);
  ConvRun run;
  run.analysis = compute::analyze_category(inputs, analysis);
  const ConvProse prose;
  if (run.analysis.status == compute::AnalysisStatus::Error) {
    run.findings = compute::build_error_findings(options.category, options.comparative, prose,
                                                 run.analysis.message);
  } else {
    const bool corrected = !options.tracelens_compat && !options.comparative;
    if (corrected) apply_corrections(run.analysis.metrics, inputs);  // docs/deviations.md C1-C4
    run.findings = compute::build_compute_findings(run.analysis.metrics, options.category,
                                                   options.comparative, prose);
    if (corrected) decorate_findings(run.findings, run.analysis.metrics);
  }
  return run;
}

}  // namespace loupe::conv
