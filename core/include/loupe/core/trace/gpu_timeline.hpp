// GPU time categories over all devices and streams pooled into one timeline (spec §3.2):
// computation, exposed communication, exposed memcpy, busy, idle, total — TraceLens's
// `gpu_timeline.csv`.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "loupe/core/trace/event_tree.hpp"

namespace loupe::core::trace {

enum class GpuClass : std::uint8_t { kComputation, kCommunication, kMemcpy };
// §3.2 rules 1-5 (first match wins). Only meaningful for GPU categories.
GpuClass classify_gpu_op(Category category, std::string_view name);
// Case-insensitive "nccl", "rccl" or "cross_device_reduce" in the name.
bool is_communication_name(std::string_view name);

struct GpuTimelineOptions {
  TimeMode time_mode = TimeMode::kExact;
  bool include_unlinked = false;                  // TraceLens --include_unlinked_kernels
  std::optional<double> micro_idle_threshold_us;  // TraceLens --micro_idle_thresh_us
};

// All values in microseconds.
struct GpuTimeline {
  double computation = 0, exposed_comm = 0, exposed_memcpy = 0, busy = 0, idle = 0, total = 0;
  double total_comm = 0, total_memcpy = 0;
  std::optional<double> micro_idle, macro_idle;  // set with a micro-idle threshold
  std::size_t op_count = 0;
};

// nullopt when the input set is empty (TraceLens raises "No GPU events found in the trace").
std::optional<GpuTimeline> compute_gpu_timeline(const TraceModel& model, const EventTree& tree,
                                                const GpuTimelineOptions& options = {});

// The CSV exactly as TraceLens writes it (columns `type,time ms,percent`, Python float repr).
std::string gpu_timeline_csv(const GpuTimeline& timeline);

}  // namespace loupe::core::trace
