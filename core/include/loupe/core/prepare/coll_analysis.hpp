// perf_report_csvs/coll_analysis.csv: TraceLens's single-rank collective summary
// (NcclAnalyser.build_df_summary_long on the one trace, spec docs/contracts/trace_model.md §3.11 and §3.1).
#pragma once

#include <optional>
#include <string>

#include "loupe/core/trace/trace_model.hpp"

namespace loupe::core::prepare {

// The CSV text TraceLens writes, or nullopt when it writes no file: a GPU-only trace (no
// cpu_op event, the same test as EventTree::gpu_only), no linked collective kernel, or no
// kernel whose eleven grouping keys are all present (kernels without collective metadata
// are dropped by the grouping).
std::optional<std::string> coll_analysis_csv(const trace::TraceModel& model);

}  // namespace loupe::core::prepare
