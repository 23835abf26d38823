// Runs the triton analysis of one category on the model: the compute library with the
// triton options and category_specific block, and the triton prose.
#pragma once

#include <string>

#include "loupe/compute/category_run.hpp"
#include "loupe/json_value.hpp"
#include "loupe/model.hpp"

namespace loupe::triton {

// {"kernel_type": "pointwise" | "reduction" | "persistent" | "other"}.
Json classify_triton(const std::string& op_name);

// The kernel-type counts (pointwise_count, ...) and the peaks.
Json triton_category_specific(const compute::CategoryInputs& inputs);

compute::AnalysisOptions triton_analysis_options(const compute::CategoryRunOptions& options);

compute::CategoryRun run_triton_analysis(const ModelView& model,
                                         const compute::CategoryRunOptions& options);

}  // namespace loupe::triton
