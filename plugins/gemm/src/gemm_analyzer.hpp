// Runs the GEMM analysis of one category on the model: the compute library with the GEMM
// options (extra fields, classification, category_specific), the GEMM prose, and in the
// default mode each operation's shape (gemm_dims) for the shape-driven actions.
#pragma once

#include "loupe/compute/category_run.hpp"
#include "loupe/model.hpp"

namespace loupe::gemm {

compute::AnalysisOptions gemm_analysis_options(const compute::CategoryRunOptions& options);

compute::CategoryRun run_gemm_analysis(const ModelView& model,
                                       const compute::CategoryRunOptions& options);

}  // namespace loupe::gemm
