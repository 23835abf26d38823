// The events TraceLens's collect_unified_perf_events picks (trace_model.md §3.6.1), reduced to
// what the sibling-sequence step needs: name, tree parent and GPU ops of each collected event,
// including the synthetic rows for uncovered kernels.
#pragma once

#include <string>
#include <vector>

#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/trace_model.hpp"

namespace loupe::core::prepare::fusion {

struct CollectedEvent {
  trace::Uid source = trace::kNoUid;  // the event (or the node a synthetic row copies)
  std::string name;
  trace::Uid parent = trace::kNoUid;
  std::vector<trace::Uid> gpu_events;
};

std::vector<CollectedEvent> collect_unified_perf_events(const trace::TraceModel& model,
                                                        const trace::EventTree& tree);

}  // namespace loupe::core::prepare::fusion
