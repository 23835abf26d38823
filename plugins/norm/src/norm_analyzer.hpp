// Runs the normalization analysis of one category on the model: the compute library with the
// normalization options and category_specific block, and the normalization prose.
#pragma once

#include "loupe/compute/category_run.hpp"
#include "loupe/json_value.hpp"
#include "loupe/model.hpp"

namespace loupe::norm {

compute::AnalysisOptions norm_analysis_options(const compute::CategoryRunOptions& options);

compute::CategoryRun run_norm_analysis(const ModelView& model,
                                       const compute::CategoryRunOptions& options);

}  // namespace loupe::norm
