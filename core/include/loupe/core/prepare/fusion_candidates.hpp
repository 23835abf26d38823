// Fusion candidates from a raw trace: what TraceLens's orchestrator_prepare STEP 4b writes to
// `category_data/fusion_candidates.json` (spec docs/contracts/fusion.md §1.2-§1.3, §2).
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "loupe/core/model/csv_table.hpp"
#include "loupe/core/prepare/unified_perf_events.hpp"
#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/trace_model.hpp"

namespace loupe::core::prepare {

// §2.2: the kernel type of a kernel name ("GEMM", "Elementwise", ..., or "Unknown").
std::string classify_kernel(std::string_view kernel_name);

// §2.3 name helpers.
std::string strip_module_name(std::string_view name);  // "nn.Module: Linear_0" -> "Linear"

struct FusionCandidatesResult {
  std::string json;                 // the file content (Python json.dumps(indent=2) bytes)
  std::size_t candidate_count = 0;  // entries in the array
  std::size_t unique_modules = 0;   // distinct module-walk bases recorded (§2.3)
  bool failed = false;              // extraction raised in TraceLens: the file is "[]"
  std::string error;                // what failed (`failed`), or why nothing could be extracted
};

// Standalone extraction (§2.3-§2.6, §2.8). `tree` must be built with add_python_func = true.
// `unified_perf_summary` is the parsed `perf_report_csvs/unified_perf_summary.csv`; when null,
// the post-processing step (attention narrowing, kernel-set dedup, data split) is skipped,
// exactly as TraceLens does when the file is missing (Q18). Times print as Python ints where
// the trace wrote integer durations (the model records each token's form); profiler (Kineto)
// traces never do, synthetic traces often do.
FusionCandidatesResult fusion_candidates_standalone(const trace::TraceModel& model,
                                                    const trace::EventTree& tree,
                                                    const CsvTable* unified_perf_summary);
// The same with unified::collect_unified_perf_events(model, tree) already computed (the perf
// report's, shared).
FusionCandidatesResult fusion_candidates_standalone(
    const trace::TraceModel& model, const trace::EventTree& tree,
    const CsvTable* unified_perf_summary, std::span<const unified::CollectedEvent> collected);

// Comparative extraction (§1.3, §2.7): trace-1 modules whose kernels map, through the lowest
// common ancestors of `diff_stats` (TraceDiff's diff_stats.csv, parsed), to fewer trace-2
// kernels. A table without LCA ids or trace-1 UIDs yields "[]" with `error` saying why.
FusionCandidatesResult fusion_candidates_comparative(const trace::TraceModel& model,
                                                     const trace::EventTree& tree,
                                                     const CsvTable& diff_stats);

}  // namespace loupe::core::prepare
