// Runs the reduce analysis of one category on the model: the compute library with the
// reduce options and category_specific block, and the reduce prose.
#pragma once

#include "loupe/compute/category_run.hpp"
#include "loupe/json_value.hpp"
#include "loupe/model.hpp"

namespace loupe::reduce {

// {"softmax_count": rows whose op name contains "softmax", "peak_hbm_bw_tbs": ...}.
Json reduce_category_specific(const compute::CategoryInputs& inputs);

compute::AnalysisOptions reduce_analysis_options(const compute::CategoryRunOptions& options);

compute::CategoryRun run_reduce_analysis(const ModelView& model,
                                         const compute::CategoryRunOptions& options);

}  // namespace loupe::reduce
