// The events TraceLens's collect_unified_perf_events picks (docs/contracts/trace_model.md §3.6.1): on every
// host path the highest op with a perf model, else the leaf op that launches kernels, then one
// synthetic row per GPU op nothing covers. The rows of unified_perf_summary.csv, and the
// sibling sequences of the fusion candidates.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/trace_model.hpp"

namespace loupe::core::prepare::unified {

enum class CollectedKind : std::uint8_t {
  kModeled,       // the op has a perf model
  kSoleBackward,  // the sole GPU-launching op under an autograd node whose forward is modeled
  kLeaf,          // an unmodeled op that launches kernels itself
  kSynthetic,     // "<A>-><kernel> (Synthetic Op)" for a kernel no other row covers
};

struct CollectedEvent {
  trace::Uid source = trace::kNoUid;  // the event (or the node a synthetic row copies)
  std::string name;
  trace::Uid parent = trace::kNoUid;
  std::vector<trace::Uid> gpu_events;  // §2.6 order
  CollectedKind kind = CollectedKind::kLeaf;
  trace::Uid forward = trace::kNoUid;  // kSoleBackward: the linked forward op
};

// `tree` must be built with TimeMode::kTraceLensCompat; python frames are traversed when the
// tree holds them.
std::vector<CollectedEvent> collect_unified_perf_events(const trace::TraceModel& model,
                                                        const trace::EventTree& tree);

}  // namespace loupe::core::prepare::unified
