// Runs the moe analysis of one category on the model: the compute library with the
// moe options and category_specific block, and the moe prose.
#pragma once

#include <string>

#include "loupe/compute/category_run.hpp"
#include "loupe/json_value.hpp"
#include "loupe/model.hpp"

namespace loupe::moe {

// TraceLens's metrics when the category's CSV is absent (a trace without MoE), plus an empty
// category_findings.
Json moe_no_data_metrics(const std::string& category, bool comparative);

compute::AnalysisOptions moe_analysis_options(const compute::CategoryRunOptions& options);

compute::CategoryRun run_moe_analysis(const ModelView& model,
                                      const compute::CategoryRunOptions& options);

}  // namespace loupe::moe
