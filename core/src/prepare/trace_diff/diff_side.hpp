// One trace as TraceDiff walks it: the event tree plus the parent / children rewrites TraceDiff
// makes while looking for the top-level roots, the comparison names, and TraceLens's event
// predicates (GPU path, kernel, dispatch call).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "loupe/core/prepare/trace_diff.hpp"

namespace loupe::core::prepare::trace_diff {

class DiffSide {
 public:
  explicit DiffSide(TraceSide side) : model_(side.model), tree_(side.tree) {}

  const trace::TraceModel& model() const { return model_; }
  const trace::EventTree& tree() const { return tree_; }

  trace::Uid parent(trace::Uid uid) const;
  std::span<const trace::Uid> children(trace::Uid uid) const;
  // Child uids in ts order (stable; events without ts sort as 0).
  std::vector<trace::Uid> sorted_by_ts(std::vector<trace::Uid> uids) const;

  // TraceLens's _get_op_name: the name, or str(uid) when the name is empty.
  std::string op_name(trace::Uid uid) const;
  // The comparison name of the node (nullopt for a nameless event).
  const std::optional<std::string>& node_name(trace::Uid uid) const;
  // The comparison name Wagner-Fischer uses (from op_name), plain or aggressive.
  std::string wf_name(trace::Uid uid, bool strip_details) const;

  bool gpu_path(trace::Uid uid) const { return !tree_.non_gpu_path(uid); }
  bool is_kernel(trace::Uid uid) const;    // cat kernel or gpu_memcpy
  bool is_cpu_op(trace::Uid uid) const;    // cat cpu_op
  bool is_dispatch(trace::Uid uid) const;  // runtime / driver call other than a graph launch
  bool is_graph_launch(trace::Uid uid) const;
  double ts(trace::Uid uid) const;  // the Python value of ts, 0 when absent

  // TraceDiff's _get_top_level_root: climb to the root of `start`, descend through single
  // children that are neither cpu_ops nor dispatch calls, and (when it descended) give the root
  // the children of the node reached, re-parenting them to the root. Returns the node reached.
  trace::Uid top_level_root(trace::Uid start);

 private:
  const trace::TraceModel& model_;
  const trace::EventTree& tree_;
  std::unordered_map<trace::Uid, std::vector<trace::Uid>> children_override_;
  std::unordered_map<trace::Uid, trace::Uid> parent_override_;
  mutable std::unordered_map<trace::Uid, std::optional<std::string>> names_;
};

}  // namespace loupe::core::prepare::trace_diff
