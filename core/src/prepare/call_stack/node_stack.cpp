// The stacks TraceLens records during the unified-row traversal (§3.6.4): a node's path from
// its root, and the part of a kernel's ancestry below the node.
#include <algorithm>
#include <string>
#include <vector>

#include "loupe/core/prepare/call_stack.hpp"

namespace loupe::core::prepare {

std::vector<std::string> node_call_stack(const trace::TraceModel& model,
                                         const trace::EventTree& tree, trace::Uid node) {
  // TraceLens starts its traversal at parentless python frames, then at cpu_root_nodes not
  // reached that way. A path topped by a python frame is therefore walked whole; any other
  // path starts at its cpu_op root, so host nodes above that root (runtime calls enclosing a
  // cpu_op) never enter the stack.
  std::vector<std::string> frames;
  std::size_t frames_to_root = 0;
  bool met_cpu_root = false;
  trace::Uid top = node;
  for (trace::Uid uid = node; uid != trace::kNoUid; uid = tree.parent(uid)) {
    if (auto frame = call_stack_frame(model, uid)) frames.push_back(std::move(*frame));
    if (!met_cpu_root && tree.cpu_op_root(uid)) {
      met_cpu_root = true;
      frames_to_root = frames.size();
    }
    top = uid;
  }
  if (met_cpu_root && model.event(top).category != trace::Category::kPythonFunction) {
    frames.resize(frames_to_root);
  }
  std::reverse(frames.begin(), frames.end());
  return frames;
}

std::vector<std::string> frames_below(const trace::TraceModel& model, const trace::EventTree& tree,
                                      trace::Uid node, trace::Uid kernel) {
  std::vector<std::string> frames;
  // TraceLens walks up until it meets `node` or runs out of parents: when `node` is not an
  // ancestor (a pseudo op above a launch, whose launch kept its old parent link), the whole
  // chain up to the root.
  for (trace::Uid uid = tree.parent(kernel); uid != node && uid != trace::kNoUid;
       uid = tree.parent(uid)) {
    if (auto frame = call_stack_frame(model, uid)) frames.push_back(std::move(*frame));
  }
  std::reverse(frames.begin(), frames.end());
  return frames;
}

std::vector<std::string> kernel_call_stack(const trace::TraceModel& model,
                                           const trace::EventTree& tree, trace::Uid node,
                                           std::span<const std::string> node_stack,
                                           trace::Uid kernel) {
  std::vector<std::string> stack(node_stack.begin(), node_stack.end());
  auto below = frames_below(model, tree, node, kernel);
  stack.insert(stack.end(), std::make_move_iterator(below.begin()),
               std::make_move_iterator(below.end()));
  return stack;
}

}  // namespace loupe::core::prepare
