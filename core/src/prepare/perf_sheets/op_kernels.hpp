// The GPU work a per-family sheet row is timed on (docs/contracts/trace_model.md §2.8, §2.11, §3.7): the
// kernels of an op's subtree, or of the autograd backward events linked to it.
#pragma once

#include <vector>

#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/trace_model.hpp"

namespace loupe::core::prepare::sheets {

// TraceLens's agg_kernels_in_subtree: depth first over the children lists, a GPU op being a
// leaf that contributes itself (an op linked twice appears twice).
std::vector<trace::Uid> subtree_kernels(const trace::TraceModel& model,
                                        const trace::EventTree& tree, trace::Uid uid);

// The autograd backward events costed for a forward op: its own `bwd_events` when it has
// some, else the union of `bwd_events` over its host subtree (preorder, first occurrence).
std::vector<trace::Uid> backward_events(const trace::EventTree& tree, trace::Uid uid);

// The kernels in start-time order (stable: ties keep their subtree order), as the sheets'
// kernel_details list them.
void sort_by_start(const trace::TraceModel& model, std::vector<trace::Uid>& kernels);

}  // namespace loupe::core::prepare::sheets
