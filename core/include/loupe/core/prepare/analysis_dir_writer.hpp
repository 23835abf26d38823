// `loupe analyze --trace`: a raw trace -> a TraceLens-compatible analysis directory
// (perf_report_csvs/, category_data/, metadata/), what TraceLens's perf report and
// orchestrator_prepare.py write (spec docs/contracts/trace_model.md §3,
// docs/contracts/multi_kernel.md §2, docs/contracts/fusion.md §1-§2, docs/contracts/conv.md §1.2).
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "loupe/core/model/csv_table.hpp"
#include "loupe/core/prepare/arch_selection.hpp"
#include "loupe/core/prepare/op_groups.hpp"
#include "loupe/core/prepare/trace_diff.hpp"
#include "loupe/core/prepare/vendor_categories.hpp"
#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/trace_model.hpp"

namespace loupe::core::prepare {

// The trace cannot become an analysis directory (e.g. it holds no GPU event).
class PrepareError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct PrepareOptions {
  std::filesystem::path trace_path;  // recorded in the manifest and metadata
  std::filesystem::path output_dir;  // recorded, and where the files go
  ArchSelection arch;
  // Trace 2's platform in a comparative run (its perf report's rooflines, the manifest's
  // trace2_platform); unset: trace 1's.
  std::optional<ArchSelection> arch2;
  // TraceLens's double-precision times in gpu_timeline.csv, and its placeholder
  // metadata/model_info.json (default mode: the run report writes the inferred one).
  bool compat_tracelens = false;
  std::function<void(std::string_view)> progress;  // one line per step
  // Vendor categories to select from trace 1 (vendor_categories.hpp): each gets
  // category_data/<cat>_ops.csv, listed in category_data/vendor_categories.json; the TraceLens
  // files (the manifest included) are unchanged by them.
  std::vector<VendorSelector> vendor_selectors;
};

struct PreparedFile {
  std::string relative_path;  // e.g. "category_data/multi_kernel_data.json"
  std::string bytes;
  // A CSV file's table, built with the bytes (equal to parse_csv(bytes)) so the model takes it
  // without parsing them; nullptr for the files the model parses.
  std::shared_ptr<const CsvTable> table;
};

struct PreparedDirectory {
  std::vector<PreparedFile> files;  // in writing order; the manifest comes last
  std::vector<std::string> notes;   // what could not be produced, and why
  bool gpu_only = false;
  // Trace 1's unified_perf_summary groups with their GPU ops (`trace/op_groups.csv`).
  std::vector<OpGroupKernels> op_groups;
};

// The event-tree options the preparation needs: python frames in the tree (TraceLens's
// --include_call_stack report and orchestrator_prepare both load them) and TraceLens's
// float time arithmetic, so the tree is node-for-node TraceLens's.
trace::TreeOptions prepare_tree_options();

// Computes every file in memory from the trace and its tree (built with
// prepare_tree_options()). Throws PrepareError when nothing can be produced.
PreparedDirectory prepare_analysis_directory(const trace::TraceModel& model,
                                             const trace::EventTree& tree,
                                             const PrepareOptions& options);

// Comparative scope (`--trace2`), what TraceLens's perf report with --comparison_json_path,
// the trace-2 perf report and orchestrator_prepare --comparison-scope comparative write:
// perf_report_trace1_csvs/ (with diff_stats.csv and the comparison columns),
// perf_report_trace2_csvs/, category data of trace 1 with comparative fusion candidates, and
// trace 2's utilization and per-category time in the manifest. Both trees are built with
// prepare_tree_options(); `options.trace_path` names trace 1. Throws PrepareError when either
// trace has no GPU event or no host ops.
PreparedDirectory prepare_comparative_directory(TraceSide trace1, TraceSide trace2,
                                                const PrepareOptions& options);

// Default mode's perf_report_csvs/memory_timeline.csv (docs/report.md, "Memory"; TraceLens writes
// no such file): `csv` (trace::memory_timeline_csv) goes into trace 1's report folder
// (layout::trace1_report_dir), right after its gpu_timeline.csv; nothing when that file is not
// there. The session builds the timeline beside the preparation, with the trace views
// (trace_views.hpp), so it is built once.
void add_memory_timeline_csv(PreparedDirectory& prepared, bool comparative, std::string csv);

// Writes each file atomically under `output_dir` (the manifest last, so a directory with a
// manifest is complete). Throws std::runtime_error naming the file that could not be written.
void write_prepared_directory(const PreparedDirectory& prepared,
                              const std::filesystem::path& output_dir);

}  // namespace loupe::core::prepare
