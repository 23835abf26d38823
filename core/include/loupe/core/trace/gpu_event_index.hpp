// EventTree::gpu_events of many nodes at once (docs/contracts/trace_model.md §2.6, §2.12: the
// subtree's GPU ops as a range instead of a list per node). One depth-first pass lays the GPU
// ops of every subtree out in one array, each node's ops a slice of it: a walk that asks for
// every host node with GPU work (the fusion candidates' module walk, docs/contracts/fusion.md
// §2.3, asks for a whole-model module and every module nested in it) reads each op once per ask
// instead of walking every subtree again.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "loupe/core/trace/event_tree.hpp"

namespace loupe::core::trace {

class GpuEventIndex {
 public:
  // A snapshot of the tree as it is now (after the pseudo ops): an edit made later is not seen.
  explicit GpuEventIndex(const EventTree& tree);

  // The same as tree.gpu_events(uid), in the same order.
  std::vector<Uid> gpu_events(Uid uid) const;
  // The same into `out` (cleared first), which keeps its capacity from call to call.
  void gpu_events(Uid uid, std::vector<Uid>& out) const;

 private:
  static constexpr std::uint32_t kNoSlice = 0xFFFFFFFFu;
  void lay_out(Uid root);

  const EventTree* tree_;
  std::vector<std::pair<std::uint32_t, Uid>> ops_;  // (GPU link order, GPU op), depth first
  std::vector<std::pair<std::uint32_t, std::uint32_t>> slices_;  // per node: [begin, end) of ops_
};

}  // namespace loupe::core::trace
