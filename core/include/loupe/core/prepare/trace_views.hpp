// Views of a raw trace that plugins read through the SDK model when `loupe analyze --trace`
// runs (docs/writing-a-plugin.md §4), next to the TraceLens-compatible files:
//
//  * "trace/gpu_events.csv" — one row per GPU op (kernel, gpu_memcpy, gpu_memset), linked or
//    not, in trace order: uid, kind (kernel | memcpy | memset | communication, the GPU
//    timeline classes of docs/contracts/trace_model.md §3.2 with memsets split out), name, device
//    (pid), stream, ts_ns, dur_ns (exact integer nanoseconds), linked (True/False: reached from a
//    host launch), launcher_uid / launcher_name (the runtime call), op_uid / op_name (nearest
//    cpu_op above the launch), memcpy_direction (D2H | H2D | D2D | other, memcpys only),
//    bytes (args.bytes when the trace records it), then launcher_ts_ns / launcher_dur_ns /
//    launcher_tid (the runtime call's time and host thread) and op_stack (the cpu_op names
//    above the launch, and python_function / user_annotation ones when the tree holds them,
//    outermost first, " > ", at most 8).
//  * "trace/op_kernels.csv" — one row per cpu_op whose subtree launched GPU work: op_uid,
//    op_name, kernel_count, kernel_time_us (busy time: union of the intervals, exact ns / 1000),
//    kernel_uids (space-separated, §2.6 order).
//  * "trace/host_calls.csv" — host events that can hold the GPU idle: one row per runtime
//    synchronize call (kind sync), synchronous memcpy call (sync_copy: a memcpy runtime call
//    without "Async"), a stream's wait on an event (stream_wait: cuda/hipStreamWaitEvent, which
//    blocks the stream, not the host), aten::_local_scalar_dense / aten::item (scalar_read) and
//    DataLoader iteration annotation (data_loader), in trace order: uid, kind, name, pid, tid,
//    ts_ns, dur_ns, op_uid / op_name (nearest cpu_op above), op_stack (as in gpu_events).
//  * "trace/op_groups.csv" — one row per row of unified_perf_summary.csv (and so of every
//    category_data/<cat>_ops.csv): ex_UID, kernel_count, kernel_uids (every GPU op launched by the
//    group's ops, space-separated). The time ledger reads it to turn a finding's op groups into
//    the GPU ops it owns (docs/findings-schema.md, "Claims").
//  * "trace/recording_window.json" — the analysis window and the GPU work outside it
//    (core/include/loupe/core/trace/recording_window.hpp; docs/report.md, "Recording window").
//  * "trace/steps.json" — the per-step table (core/include/loupe/core/trace/step_table.hpp;
//    docs/report.md, "Steps"): where each step's time goes, warm-up steps, step-to-step
//    variation, and what could not be used.
//  * "trace/memory.json" — the allocator's memory timeline summary
//    (core/include/loupe/core/trace/memory_timeline.hpp; docs/report.md, "Memory").
//  * "trace/serving_summary.json" — only when the trace has serving-engine step labels or
//    GPU-graph launches: the steps, phases and graph replays of serving_summary.hpp.
//
// Beside the views, not in the model: the run's dependency model for step-time what-ifs
// (whatif::RunGraph, docs/what-if.md), which owns its data and outlives the trace model.
#pragma once

#include <memory>
#include <span>
#include <string>

#include "loupe/core/model/csv_table.hpp"
#include "loupe/core/model/model.hpp"
#include "loupe/core/prepare/op_groups.hpp"
#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/trace_model.hpp"
#include "loupe/core/whatif/run_graph.hpp"

namespace loupe::core::prepare {

struct TraceViews {
  std::shared_ptr<const CsvTable> gpu_events;
  std::shared_ptr<const CsvTable> op_kernels;
  std::shared_ptr<const CsvTable> host_calls;
  std::shared_ptr<const rapidjson::Document> serving_summary;  // null when there is none
  // The step-time what-if model (whatif::predict_gain); null when not asked for.
  std::shared_ptr<const whatif::RunGraph> run_graph;
  std::shared_ptr<const CsvTable> op_groups;  // null when not prepared
  // trace/recording_window.json (recording_window.hpp); null when the trace has no GPU op.
  std::shared_ptr<const rapidjson::Document> recording_window;
  // trace/steps.json (step_table.hpp); always built (a trace without steps says so).
  std::shared_ptr<const rapidjson::Document> steps;
  // trace/memory.json (memory_timeline.hpp); always built (a trace without allocator events
  // says so: events 0).
  std::shared_ptr<const rapidjson::Document> memory;
  // Not a view: the bytes of perf_report_csvs/memory_timeline.csv (memory_timeline_csv), from
  // the same timeline as trace/memory.json, when TraceViewsOptions::memory_csv asks for them
  // and the trace has allocator samples; empty otherwise.
  std::string memory_csv;
};

// The "trace/op_groups.csv" view from the groups the perf report computed.
std::shared_ptr<const CsvTable> op_groups_table(std::span<const OpGroupKernels> groups);

struct TraceViewsOptions {
  bool run_graph = true;    // build TraceViews::run_graph (default mode; compat does not need it)
  bool memory_csv = false;  // fill TraceViews::memory_csv (default mode's analysis directory)
};

TraceViews build_trace_views(const trace::TraceModel& model, const trace::EventTree& tree,
                             const TraceViewsOptions& options = {});

// build_trace_views in parts, for a caller that builds them beside other work: the JSON
// documents (a few MB, half of the CPU time), the three tables (most of the memory: about 30 MB
// for a million events) and the run graph (whatif::RunGraph::build, left to the caller). All of
// them only read the model and the tree.
TraceViews build_trace_summaries(const trace::TraceModel& model, const trace::EventTree& tree,
                                 const TraceViewsOptions& options = {});
void add_trace_tables(TraceViews& views, const trace::TraceModel& model,
                      const trace::EventTree& tree);

// Adds the views to `model` under the names above.
void install_trace_views(Model& model, const TraceViews& views);

}  // namespace loupe::core::prepare
