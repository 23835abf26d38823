// What the profiler recorded of the GPU's work: the analysis window every default-mode output of
// a run uses, and the GPU work outside it (docs/report.md, "Recording window").
//
// The window runs from the start of the first GPU op linked to a recorded host launch to the end
// of the last one: what gpu_timeline.csv measures. GPU ops starting before it were launched
// before the profiler started recording (their correlation ids precede the first recorded
// launch's); ops starting at or after its end were launched after it stopped recording the
// host. Neither can be attributed to a host cause: their time, and every gap they bound, is
// outside what the trace can explain and never a saving. A trace whose GPU ops link to no launch
// (GPU-only) has all of them in the window.
#pragma once

#include <cstdint>
#include <optional>

#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/trace_model.hpp"
#include "loupe/json_value.hpp"

namespace loupe::core::trace {

struct OutsideWork {
  std::uint64_t ops = 0;      // GPU ops starting on this side of the window
  std::int64_t busy_ns = 0;   // union of their intervals
  std::int64_t first_ns = 0;  // first start / last end of them (0 when ops == 0)
  std::int64_t last_end_ns = 0;
  // Of them, the ops whose correlation id is below the first recorded launch's (before) or
  // above the last one's (after): launched while the host was not recorded.
  std::uint64_t correlation_evidence = 0;
};

struct RecordingWindow {
  bool gpu_only = false;  // no GPU op links to a host launch: the window is every GPU op's span
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  std::uint64_t ops_inside = 0;
  std::uint64_t unlinked_inside = 0;  // ops in the window without a recorded launch
  OutsideWork before;
  OutsideWork after;
  // GPU ops starting at the trace's first timestamp: running when the profiler started.
  std::uint64_t ops_at_trace_start = 0;
  // What kind of recording it is (docs/report.md, "Trace kind"): GPU-graph capture calls
  // (cuda/hipStreamBeginCapture, ...GraphInstantiate..., ...GraphLaunch), the time from the
  // first capture's start to the last one's end, and serving-engine step labels (step_labels.hpp).
  std::uint64_t capture_begins = 0;
  std::uint64_t graph_instantiations = 0;
  std::uint64_t graph_launches = 0;
  std::int64_t capture_ns = 0;
  std::uint64_t step_labels = 0;
  std::int64_t duration_ns() const { return end_ns - start_ns; }
  bool work_outside() const { return before.ops + after.ops > 0; }
};

// nullopt when the trace has no GPU op with a time and a duration.
std::optional<RecordingWindow> find_recording_window(const TraceModel& model,
                                                     const EventTree& tree);

// The document "trace/recording_window.json" (docs/writing-a-plugin.md §4) and back.
Json recording_window_json(const RecordingWindow& window);
std::optional<RecordingWindow> recording_window_from_json(const Json& doc);

}  // namespace loupe::core::trace
