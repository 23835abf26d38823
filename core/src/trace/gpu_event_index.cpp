#include "loupe/core/trace/gpu_event_index.hpp"

#include <algorithm>

namespace loupe::core::trace {

GpuEventIndex::GpuEventIndex(const EventTree& tree)
    : tree_(&tree), slices_(tree.node_count(), {kNoSlice, kNoSlice}) {
  // From the top of each chain of nodes with GPU work; a node the walk does not reach (its
  // parent link and its parent's child list disagree after an edit) is asked of the tree.
  const auto n = static_cast<Uid>(tree.node_count());
  for (Uid u = 0; u < n; ++u) {
    if (!tree.has_gpu_events(u)) continue;
    const Uid p = tree.parent(u);
    if (p != kNoUid && tree.has_gpu_events(p)) continue;
    if (slices_[u].first == kNoSlice) lay_out(u);
  }
}

// Appends the root's subtree depth first in child order; each node gets the slice of its first
// complete walk (a node listed under two parents is walked again, with the same ops).
void GpuEventIndex::lay_out(Uid root) {
  struct Frame {
    Uid node;
    std::uint32_t begin;  // ops_ size when the node was entered
    std::uint32_t next;   // next index into child_list_
    std::uint32_t end;
  };
  const EventTree& t = *tree_;
  std::vector<Frame> stack;
  const auto enter = [&](Uid u) {
    const auto [begin, end] = t.child_range(u);
    stack.push_back({u, static_cast<std::uint32_t>(ops_.size()), begin, end});
  };
  enter(root);
  while (!stack.empty()) {
    Frame& f = stack.back();
    if (f.next == f.end) {
      if (slices_[f.node].first == kNoSlice) {
        slices_[f.node] = {f.begin, static_cast<std::uint32_t>(ops_.size())};
      }
      stack.pop_back();
      continue;
    }
    const std::uint32_t k = f.next++;
    const Uid child = t.child_list_[k];
    if (t.child_edge_seq_[k] != kNoIndex) {
      ops_.emplace_back(t.child_edge_seq_[k], child);
    } else if (t.has_gpu_events(child)) {
      enter(child);  // invalidates f
    }
  }
}

std::vector<Uid> GpuEventIndex::gpu_events(Uid uid) const {
  std::vector<Uid> out;
  gpu_events(uid, out);
  return out;
}

void GpuEventIndex::gpu_events(Uid uid, std::vector<Uid>& out) const {
  out.clear();
  if (!tree_->has_gpu_events(uid)) return;
  if (uid >= slices_.size() || slices_[uid].first == kNoSlice) {
    out = tree_->gpu_events(uid);
    return;
  }
  const auto [begin, end] = slices_[uid];
  const auto first = ops_.begin() + begin;
  const auto last = ops_.begin() + end;
  // Link order (EventTree::gpu_events); the depth-first order nearly always is it already.
  if (std::is_sorted(first, last)) {
    for (auto it = first; it != last; ++it) out.push_back(it->second);
    return;
  }
  // A slice out of order is a few runs in link order (cut where a subtree's launches were not
  // recorded in start order): merged run by run, linear per run, unless there are many.
  std::vector<std::pair<std::uint32_t, Uid>> sorted(first, last);
  std::vector<std::size_t> runs;  // start of each run after the first
  for (std::size_t i = 1; i < sorted.size(); ++i) {
    if (sorted[i] < sorted[i - 1]) runs.push_back(i);
  }
  constexpr std::size_t kMaxMergedRuns = 16;
  if (runs.size() > kMaxMergedRuns) {
    std::sort(sorted.begin(), sorted.end());
  } else {
    for (std::size_t r = 0; r < runs.size(); ++r) {
      const std::size_t run_end = r + 1 < runs.size() ? runs[r + 1] : sorted.size();
      std::inplace_merge(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(runs[r]),
                         sorted.begin() + static_cast<std::ptrdiff_t>(run_end));
    }
  }
  for (const auto& [seq, g] : sorted) out.push_back(g);
}

}  // namespace loupe::core::trace
