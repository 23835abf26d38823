#include "op_kernels.hpp"

#include <algorithm>
#include <unordered_set>

namespace loupe::core::prepare::sheets {
namespace {

void collect_kernels(const trace::TraceModel& model, const trace::EventTree& tree, trace::Uid uid,
                     std::vector<trace::Uid>& out) {
  if (trace::is_gpu_category(model.event(uid).category)) {
    out.push_back(uid);
    return;
  }
  for (const trace::Uid child : tree.children(uid)) collect_kernels(model, tree, child, out);
}

void collect_backward(const trace::EventTree& tree, trace::Uid uid,
                      std::unordered_set<trace::Uid>& seen, std::vector<trace::Uid>& out) {
  for (const trace::Uid b : tree.bwd_events(uid)) {
    if (seen.insert(b).second) out.push_back(b);
  }
  for (const trace::Uid child : tree.children(uid)) collect_backward(tree, child, seen, out);
}

}  // namespace

std::vector<trace::Uid> subtree_kernels(const trace::TraceModel& model,
                                        const trace::EventTree& tree, trace::Uid uid) {
  std::vector<trace::Uid> out;
  collect_kernels(model, tree, uid, out);
  return out;
}

std::vector<trace::Uid> backward_events(const trace::EventTree& tree, trace::Uid uid) {
  const auto& own = tree.bwd_events(uid);
  if (!own.empty()) return own;
  std::unordered_set<trace::Uid> seen;
  std::vector<trace::Uid> out;
  collect_backward(tree, uid, seen, out);
  return out;
}

void sort_by_start(const trace::TraceModel& model, std::vector<trace::Uid>& kernels) {
  std::stable_sort(kernels.begin(), kernels.end(),
                   [&](trace::Uid a, trace::Uid b) { return model.ts_us(a) < model.ts_us(b); });
}

}  // namespace loupe::core::prepare::sheets
