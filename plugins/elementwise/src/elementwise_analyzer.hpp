// Runs the elementwise analysis of one category on the model: the compute library with the
// elementwise options and category_specific block, and the elementwise prose.
#pragma once

#include "loupe/compute/category_run.hpp"
#include "loupe/json_value.hpp"
#include "loupe/model.hpp"

namespace loupe::elementwise {

compute::AnalysisOptions elementwise_analysis_options(const compute::CategoryRunOptions& options);

compute::CategoryRun run_elementwise_analysis(const ModelView& model,
                                              const compute::CategoryRunOptions& options);

}  // namespace loupe::elementwise
