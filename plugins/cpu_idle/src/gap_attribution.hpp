// Attribution of GPU idle time from the raw trace (Loupe default mode; docs/deviations.md,
// "CPU/idle analyzer"). Per device, the GPU is busy while any of its ops runs; every stretch
// between two busy intervals is an idle gap. Each gap's time is split by what the host was
// doing:
//
//  * synchronization: the launching host thread sat in a blocking call (a runtime synchronize,
//    a synchronous copy, aten::_local_scalar_dense / aten::item);
//  * launch-bound: the op that ends the gap was launched after the GPU went idle and the host
//    reached that launch within kLaunchBoundWindowNs, or the time is the launch call itself
//    plus kLaunchLatencyNs: the CPU was issuing the next launch;
//  * other: DataLoader iteration, a longer host stretch before the launch (host work), work that
//    was already queued but did not start (a device-side wait; in gaps of at most
//    kDeviceSwitchMaxGapNs the device's switch between back-to-back ops), or an op with no host
//    launch.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace loupe::cpu_idle {

// The host reached the next launch within this time after the GPU went idle: launch overhead.
inline constexpr std::int64_t kLaunchBoundWindowNs = 1'000'000;  // 1 ms
// Time from the end of a launch call to the op's start that still counts as launch latency.
inline constexpr std::int64_t kLaunchLatencyNs = 20'000;  // 20 µs
// Queued work that starts at most this long after the previous op ends: the device's own
// switch between back-to-back ops (graph replays, queued eager kernels), not a dependency.
inline constexpr std::int64_t kDeviceSwitchMaxGapNs = 10'000;  // 10 µs

// The texts of Launch, GpuOp and HostCall are views of the cells of the table they were read from
// (trace_inputs.hpp): the host's table, valid until analyze() returns. A big trace has a GpuOp per
// GPU op, and copies of their names and stacks were most of the reading time.
struct Launch {
  std::int64_t ts_ns = 0;
  std::int64_t dur_ns = 0;
  std::string_view tid;   // host thread of the runtime call
  std::string_view name;  // the runtime call (cudaLaunchKernel, hipGraphLaunch, ...)
};

struct GpuOp {
  std::string_view device;
  std::string_view name;
  std::string_view kind;  // kernel | memcpy | memset | communication
  std::string_view memcpy_direction;
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  std::optional<Launch> launch;  // nullopt: no host launch found
  std::string_view op_name;      // nearest cpu_op above the launch
  std::string_view op_stack;     // host stack above the launch, outermost first
};

// StreamWait (cuda/hipStreamWaitEvent) does not block the host: it makes the stream wait, so it
// only explains queued wait (Gap::stream_wait).
enum class HostCallKind { Sync, SyncCopy, ScalarRead, DataLoader, StreamWait };

struct HostCall {
  HostCallKind kind = HostCallKind::Sync;
  std::string_view name;
  std::string_view tid;
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  std::string_view op_name;
  std::string_view op_stack;
};

enum class IdleCause { LaunchBound, Synchronization, Other };
// Why "other" time is not launch-bound or synchronization.
enum class OtherReason { DataLoading, HostWork, QueuedWait, DeviceSwitch, Unlinked };
inline constexpr int kOtherReasonCount = 5;

const char* to_string(IdleCause cause);  // launch_bound | synchronization | other
// data_loading | host_work | queued_wait | device_switch | unlinked
const char* to_string(OtherReason reason);

struct Gap {
  std::string device;
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  std::int64_t launch_bound_ns = 0;
  std::int64_t sync_ns = 0;
  std::int64_t other_ns[kOtherReasonCount] = {};
  const GpuOp* before = nullptr;       // the op whose end opens the gap
  const GpuOp* after = nullptr;        // the op whose start closes it
  const HostCall* blocking = nullptr;  // the sync call overlapping the gap most, if any
  // With queued wait: the last stream wait the launching thread issued within 1 ms before it
  // launched the op that ends the gap (the likely dependency), if any.
  const HostCall* stream_wait = nullptr;
  std::int64_t duration_ns() const { return end_ns - start_ns; }
  std::int64_t other_total_ns() const;
  IdleCause dominant() const;  // the largest share (ties: sync, launch-bound, other)
};

// Sums per cause; `sync_calls` aggregates the blocking calls by (name, op).
struct SyncSource {
  std::string name;
  std::string op_name;
  std::string op_stack;
  std::int64_t gaps = 0;
  std::int64_t idle_ns = 0;
};

struct Breakdown {
  std::vector<GpuOp> ops;       // owned: gaps point into it
  std::vector<HostCall> calls;  // owned: gaps point into it
  std::vector<Gap> gaps;        // by device, then time
  std::int64_t span_ns = 0;     // sum over devices of first-start .. last-end
  std::int64_t busy_ns = 0;
  std::int64_t idle_ns = 0;
  std::int64_t launch_bound_ns = 0;
  std::int64_t sync_ns = 0;
  std::int64_t other_ns[kOtherReasonCount] = {};
  std::int64_t graph_launches = 0;       // ops launched by a graph launch call
  std::int64_t eager_launches = 0;       // ops launched by any other call
  std::vector<SyncSource> sync_sources;  // by idle time, descending
  std::int64_t other_total_ns() const;
  // Gaps ordered by duration (longest first), at most `n`.
  std::vector<const Gap*> top_gaps(std::size_t n) const;
};

Breakdown attribute_idle(std::vector<GpuOp> ops, std::vector<HostCall> calls);

}  // namespace loupe::cpu_idle
