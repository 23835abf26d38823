// Replaying a RunGraph with some GPU ops at other durations (docs/what-if.md): a GPU op starts
// when its launch, its stream predecessor and the events it waits for allow; a blocking host
// call ends when what it waits for ends; host work keeps its measured durations and gaps. The
// answer is per-step predicted durations, the total, and the critical path's composition.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "loupe/core/whatif/run_graph.hpp"

namespace loupe::core::whatif {

// One GPU op (by gpu_events uid) at a target duration.
struct KernelTarget {
  std::uint32_t uid = 0;
  std::int64_t duration_ns = 0;
};

// What a stretch of the critical path is.
enum class PathKind : std::uint8_t {
  kGpuCompute,
  kCommunication,
  kMemcpy,    // memcpy and memset ops
  kHost,      // launch overhead and host work between launches
  kSync,      // blocking calls: their own cost and their return after the GPU
  kGpuQueue,  // a GPU op waiting on its stream or an event after its predecessor ended
};
inline constexpr std::size_t kPathKindCount = 6;
std::string_view path_kind_name(PathKind kind);  // "GPU compute", ...

struct PathComposition {
  std::array<std::int64_t, kPathKindCount> ns{};
  std::int64_t total() const;
  std::int64_t operator[](PathKind kind) const { return ns[static_cast<std::size_t>(kind)]; }
};

struct StepPrediction {
  std::int64_t measured_ns = 0;
  std::int64_t predicted_ns = 0;
  PathComposition path;  // the run's critical path inside this step (predicted schedule)
};

struct Prediction {
  std::vector<StepPrediction> steps;   // in RunGraph::steps() order
  std::int64_t measured_total_ns = 0;  // first step's start to last step's end
  std::int64_t predicted_total_ns = 0;
  PathComposition path;         // over the whole run
  std::size_t changed_ops = 0;  // targets that name an op of the graph
  // Share of the changed ops' measured time on ops whose dependencies are unresolved.
  double unresolved_share = 0;
  bool heuristic = false;  // unresolved_share above kHeuristicShare
};

// A query whose changed time is more than this share unresolved is flagged heuristic.
inline constexpr double kHeuristicShare = 0.01;

// Replays the graph; targets naming no op of the graph are ignored (changed_ops counts the
// others). One linear pass over the graph.
Prediction simulate(const RunGraph& graph, std::span<const KernelTarget> targets);

// How much shorter the run's steps would be (positive = shorter) if the given ops took the given
// durations: per step, their sum, and the run's end-to-end total.
struct StepGain {
  std::vector<std::int64_t> per_step_ns;
  std::int64_t sum_ns = 0;
  std::int64_t total_ns = 0;
  double unresolved_share = 0;
  bool heuristic = false;
};
StepGain predict_gain(const RunGraph& graph, std::span<const KernelTarget> targets);

}  // namespace loupe::core::whatif
