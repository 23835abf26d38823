// Device memory over the trace from the PyTorch caching allocator's events (docs/report.md,
// "Memory"): the `[memory]` instant events a trace recorded with profile_memory=True holds, one
// per allocation (Bytes > 0) or free (Bytes < 0), each with the allocator's running totals
// ("Total Allocated", "Total Reserved") of its device ("Device Type", "Device Id").
//
// Per device: the allocated and reserved bytes over time, their peaks (the largest totals the
// allocator reported: its own figure), what was live at the allocated peak, by the cpu_op that
// allocated it (the innermost cpu_op of the event's thread enclosing it), and per step the
// allocations, frees, bytes allocated and changes of the reserved total (the allocator asking
// the driver for memory or giving it back). Events without a device or without the totals are
// counted and not used.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/step_table.hpp"
#include "loupe/core/trace/trace_model.hpp"
#include "loupe/json_value.hpp"

namespace loupe::core::trace {

struct MemorySample {
  std::int64_t ts_ns = 0;
  std::int64_t allocated = 0;  // the allocator's totals after this event
  std::int64_t reserved = 0;
  std::int64_t bytes = 0;  // this event: > 0 allocation, < 0 free
  // The innermost enclosing cpu_op ("" when none): a name of the trace model, valid while the
  // model lives.
  std::string_view op;
};

struct LiveByOp {
  std::string op;  // "" : no enclosing cpu_op
  std::int64_t bytes = 0;
  std::uint64_t blocks = 0;
};

struct StepMemory {
  std::string step;
  std::uint64_t allocations = 0;
  std::uint64_t frees = 0;
  std::int64_t allocated_bytes = 0;
  std::uint64_t reserved_changes = 0;
  std::int64_t peak_allocated = 0;
  bool warmup = false;
};

struct DeviceMemory {
  std::string device;  // cpu, cuda:<id>, or device<type>:<id>
  bool gpu = false;
  std::int64_t capacity_bytes = 0;    // the trace's deviceProperties totalGlobalMem (0: unknown)
  std::vector<MemorySample> samples;  // by time
  std::int64_t peak_allocated = 0;
  std::int64_t peak_allocated_ts_ns = 0;
  std::int64_t peak_reserved = 0;
  std::uint64_t allocations = 0;
  std::uint64_t frees = 0;
  std::int64_t allocated_bytes = 0;    // sum of the allocations
  std::uint64_t reserved_changes = 0;  // events whose reserved total differs from the previous
  std::vector<LiveByOp> live_at_peak;  // by bytes, descending
  // Of the peak, bytes live without an allocation event in the trace (allocated before it).
  std::int64_t live_before_trace_bytes = 0;
  std::vector<StepMemory> steps;
};

struct MemoryTimeline {
  std::uint64_t events = 0;           // [memory] events in the trace
  std::uint64_t without_device = 0;   // no Device Type / Device Id: not used
  std::uint64_t without_totals = 0;   // no Total Allocated / Total Reserved: not used
  std::vector<DeviceMemory> devices;  // GPUs first, by name
  bool empty() const { return events == 0; }
};

MemoryTimeline build_memory_timeline(const TraceModel& model, const EventTree& tree,
                                     const StepTable& steps);

// perf_report_csvs/memory_timeline.csv: one row per used event, by device then time:
// device, ts_ns, allocated_bytes, reserved_bytes, bytes, op.
std::string memory_timeline_csv(const MemoryTimeline& timeline);

// The document "trace/memory.json" (docs/writing-a-plugin.md §4): everything but the samples,
// which are reduced to at most `max_points` per device (the largest totals of each time bucket,
// so the peak stays), as [ts_ns, allocated, reserved].
Json memory_timeline_json(const MemoryTimeline& timeline, std::size_t max_points = 400);

}  // namespace loupe::core::trace
