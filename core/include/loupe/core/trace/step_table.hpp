// Where each step's time goes (docs/report.md, "Steps"): one row per step of the trace, from
// its ProfilerStep#N annotations, else from serving-engine step labels (step_labels.hpp).
//
// A step is its host annotation [start, end): its time is the annotation's duration. Its GPU
// work is the GPU ops whose launch call starts inside it (linked through the event tree); their
// span (first start to last end, per device) is split into busy time per GPU class
// (computation, communication, memcpy: the union of each class's intervals) and idle time, and
// each idle gap by what ended it: the op that closed it was launched after the gap began and a
// synchronize call of the launching thread overlapped the gap (sync), it was launched after the
// gap began otherwise (host: the GPU waited for the host to launch it), it was already queued
// (queued: a device-side wait), or it has no recorded launch (unlinked). Host time is the union
// of the cpu_ops of the annotation's thread inside the step. The queue depth (queue_depth.hpp)
// is summed over the streams of the step's devices, over its GPU span.
//
// Warm-up: leading steps longer than kWarmupFactor times the median step (at least three steps,
// at least one left) are marked and left out of the aggregates. Variation: a steady step is slow
// when it exceeds the median by more than max(kSlowSigmas robust standard deviations
// (1.4826 * MAD), kSlowMinFraction of the median); with at least kMinStepsForVariation steady
// steps, the time slow steps took beyond the median is the measured excess.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/trace_model.hpp"
#include "loupe/json_value.hpp"

namespace loupe::core::trace {

inline constexpr double kWarmupFactor = 1.5;
inline constexpr double kSlowSigmas = 3.0;
inline constexpr double kSlowMinFraction = 0.05;
inline constexpr std::size_t kMinStepsForVariation = 4;

enum class StepSource : std::uint8_t { kNone, kProfilerStep, kServingLabel };
const char* to_string(StepSource source);  // none | profiler_step | serving_label

struct StepIdle {
  std::int64_t sync_ns = 0;
  std::int64_t host_ns = 0;
  std::int64_t queued_ns = 0;
  std::int64_t unlinked_ns = 0;
  std::int64_t total() const { return sync_ns + host_ns + queued_ns + unlinked_ns; }
};

struct StepRow {
  std::string name;
  std::int64_t start_ns = 0;  // the host annotation
  std::int64_t end_ns = 0;
  std::uint64_t gpu_ops = 0;
  std::int64_t gpu_start_ns = 0;  // first start / last end of its GPU ops (0 without any)
  std::int64_t gpu_end_ns = 0;
  std::int64_t gpu_span_ns = 0;  // summed over devices
  std::int64_t busy_ns = 0;
  std::int64_t computation_ns = 0;
  std::int64_t communication_ns = 0;
  std::int64_t memcpy_ns = 0;
  StepIdle idle;
  std::int64_t host_ns = 0;
  double queue_mean = 0.0;
  std::int64_t queue_max = 0;
  std::int64_t queue_empty_ns = 0;  // time of the GPU span with no op queued
  bool warmup = false;
  std::int64_t step_ns() const { return end_ns - start_ns; }
};

struct StepVariation {
  std::size_t steady_steps = 0;
  std::int64_t median_ns = 0;
  std::int64_t spread_ns = 0;     // robust standard deviation: 1.4826 * MAD
  std::int64_t threshold_ns = 0;  // a step above median + threshold is slow
  std::vector<std::size_t> slow;  // indices into StepTable::steps
  std::int64_t excess_ns = 0;     // sum over slow steps of (step - median)
  bool significant() const { return !slow.empty(); }
};

struct StepTable {
  StepSource source = StepSource::kNone;
  std::vector<StepRow> steps;           // by start time
  std::size_t devices = 0;              // devices with GPU work in some step
  std::uint64_t ops_outside_steps = 0;  // linked GPU ops launched outside every step
  // What could not be used, one sentence each (negative durations, overlapping steps, GPU ops
  // that start before their launch: the clocks disagree).
  std::vector<std::string> problems;
  std::optional<StepVariation> variation;  // nullopt: fewer than kMinStepsForVariation steady
};

StepTable build_step_table(const TraceModel& model, const EventTree& tree);

// The document "trace/steps.json" (docs/writing-a-plugin.md §4) and back (times in ns).
Json step_table_json(const StepTable& table);
std::optional<StepTable> step_table_from_json(const Json& doc);

}  // namespace loupe::core::trace
