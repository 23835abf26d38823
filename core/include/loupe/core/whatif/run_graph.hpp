// The dependency model of one traced run, for step-time what-ifs (docs/what-if.md): every GPU op
// (kernel, memcpy, memset) with its stream order, the host call that launched it, the
// cross-stream event waits before it; every blocking host call (synchronize, synchronous copy)
// with the GPU ops it waits for; host threads as chains whose work keeps its measured durations
// and gaps; and the run's steps. Every edge carries a latency calibrated on the measured times,
// so replaying the graph without a change reproduces every measured time.
//
// The graph owns all its data (no pointer into the trace model): it outlives the trace model
// and the event tree it was built from.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/trace_model.hpp"

namespace loupe::core::whatif {

inline constexpr std::uint32_t kNone = 0xFFFFFFFFu;

// What a GPU op's time is on the critical path.
enum class OpClass : std::uint8_t { kCompute, kCommunication, kMemcpy, kMemset };

// Where the run's steps come from.
enum class StepSource : std::uint8_t { kProfilerStep, kServingLabel, kWholeTrace };
std::string_view step_source_name(StepSource source);  // "ProfilerStep annotations", ...

struct GpuOp {
  std::int64_t start = 0;  // measured, ns
  std::int64_t dur = 0;
  std::uint32_t uid = 0;              // trace event index = gpu_events.csv uid
  std::uint32_t stream = 0;           // index into streams()
  std::uint32_t launch = kNone;       // host node that launched it
  std::uint32_t stream_prev = kNone;  // previous op on the same stream
  std::int64_t launch_latency = 0;    // launch start -> op start
  std::int64_t stream_latency = 0;    // previous op's end -> op start
  std::uint32_t waits_begin = 0;      // cross-stream event waits: op_waits()[begin, end)
  std::uint32_t waits_end = 0;
  std::uint32_t name = 0;      // strings(): kernel name
  std::uint32_t op_name = 0;   // strings(): nearest cpu_op above the launch ("" when none)
  std::uint32_t category = 0;  // strings(): that op's perf-model category ("" when none)
  OpClass op_class = OpClass::kCompute;
  bool unresolved = false;  // no launch, or overlaps its stream predecessor
};

// A host call the replay needs: a launch (of one or more GPU ops) or a blocking call.
struct HostNode {
  std::int64_t start = 0;  // measured, ns
  std::int64_t dur = 0;
  std::uint32_t thread = 0;
  std::uint32_t prior_block = kNone;  // the thread's last blocking call that ended before start
  bool blocking = false;
  std::int64_t own_latency = 0;   // blocking: start -> end when nothing is waited for
  std::uint32_t waits_begin = 0;  // blocking: host_waits()[begin, end)
  std::uint32_t waits_end = 0;
  std::uint32_t name = 0;  // strings()
};

struct WaitEdge {
  std::uint32_t op = 0;      // the GPU op waited for
  std::int64_t latency = 0;  // its end -> the waiter's start (GPU op) or end (host call)
};

// A point of host time on a thread: it moves with the thread's last blocking call before it.
struct HostTime {
  std::int64_t time = 0;
  std::uint32_t prior_block = kNone;
};

struct Step {
  std::string name;
  HostTime start;
  HostTime end;                 // the annotation's end
  bool anchored = true;         // false for the whole-trace step (start fixed, end = last work)
  std::uint32_t ops_begin = 0;  // step_ops()[begin, end): GPU ops launched inside the step
  std::uint32_t ops_end = 0;
};

struct GraphStats {
  std::uint64_t gpu_ops = 0;
  std::uint64_t unlinked_ops = 0;     // no launch found (missing flow / correlation)
  std::uint64_t overlapping_ops = 0;  // start before the previous op on the stream ends
  std::uint64_t blocking_calls = 0;
  std::uint64_t event_waits = 0;   // stream waits on events, resolved to an op
  std::uint64_t cyclic_nodes = 0;  // replayed in measured order (inconsistent timestamps)
  std::int64_t unresolved_ns = 0;  // measured time of unresolved ops
  std::int64_t op_ns = 0;          // measured time of all ops
  // Typical latencies of the trace (medians, docs/what-if.md "Calibration").
  std::int64_t launch_latency_ns = 0;  // launch call start -> op start, GPU idle
  std::int64_t queue_latency_ns = 0;   // previous op's end -> queued op's start
};

class RunGraph {
 public:
  // Built from the trace model and its event tree (any TreeOptions).
  static RunGraph build(const trace::TraceModel& model, const trace::EventTree& tree);

  const std::vector<GpuOp>& ops() const { return ops_; }
  const std::vector<HostNode>& host_nodes() const { return nodes_; }
  const std::vector<WaitEdge>& op_waits() const { return op_waits_; }
  const std::vector<WaitEdge>& host_waits() const { return host_waits_; }
  const std::vector<Step>& steps() const { return steps_; }
  const std::vector<std::uint32_t>& step_ops() const { return step_ops_; }
  StepSource step_source() const { return step_source_; }
  // Evaluation order. With n ops and m host nodes: ids < n are ops, [n, n + m) the start of
  // host node id - n, [n + m, n + 2m) the end of host node id - n - m (a blocking call's end
  // waits for GPU ops; its start, which its launches need, does not).
  const std::vector<std::uint32_t>& order() const { return order_; }
  const std::vector<std::string>& strings() const { return strings_; }
  std::string_view str(std::uint32_t id) const { return strings_[id]; }
  std::size_t stream_count() const { return stream_count_; }
  const GraphStats& stats() const { return stats_; }
  // Share of the GPU ops' measured time whose dependencies could not be resolved.
  double unresolved_share() const;
  // The op index of a gpu_events uid; nullopt when the uid is no GPU op of the graph.
  std::optional<std::uint32_t> op_index(std::uint32_t uid) const;
  // Measured step durations (ns), from the trace's times alone (not from the replay).
  const std::vector<std::int64_t>& measured_steps() const { return measured_steps_; }
  std::int64_t measured_total() const { return measured_total_; }
  // The replay without a change (computed once by build): predict_gain's baseline.
  const std::vector<std::int64_t>& identity_steps() const { return identity_steps_; }
  std::int64_t identity_total() const { return identity_total_; }

 private:
  friend class RunGraphBuilder;
  std::vector<GpuOp> ops_;
  std::vector<HostNode> nodes_;
  std::vector<WaitEdge> op_waits_;
  std::vector<WaitEdge> host_waits_;
  std::vector<Step> steps_;
  std::vector<std::uint32_t> step_ops_;
  std::vector<std::uint32_t> order_;
  std::vector<std::string> strings_;
  std::size_t stream_count_ = 0;
  StepSource step_source_ = StepSource::kWholeTrace;
  GraphStats stats_;
  std::vector<std::int64_t> measured_steps_;
  std::int64_t measured_total_ = 0;
  std::vector<std::int64_t> identity_steps_;
  std::int64_t identity_total_ = 0;
};

}  // namespace loupe::core::whatif
