#include "diff_side.hpp"

#include <algorithm>

#include "name_normalization.hpp"

namespace loupe::core::prepare::trace_diff {

trace::Uid DiffSide::parent(trace::Uid uid) const {
  const auto it = parent_override_.find(uid);
  return it != parent_override_.end() ? it->second : tree_.parent(uid);
}

std::span<const trace::Uid> DiffSide::children(trace::Uid uid) const {
  const auto it = children_override_.find(uid);
  return it != children_override_.end() ? std::span<const trace::Uid>(it->second)
                                        : tree_.children(uid);
}

std::vector<trace::Uid> DiffSide::sorted_by_ts(std::vector<trace::Uid> uids) const {
  std::stable_sort(uids.begin(), uids.end(),
                   [&](trace::Uid a, trace::Uid b) { return ts(a) < ts(b); });
  return uids;
}

std::string DiffSide::op_name(trace::Uid uid) const {
  const std::string_view name = model_.name(uid);
  return name.empty() ? std::to_string(uid) : std::string(name);
}

const std::optional<std::string>& DiffSide::node_name(trace::Uid uid) const {
  const auto [it, inserted] = names_.try_emplace(uid);
  if (inserted) {
    const std::string_view name = model_.name(uid);
    if (!name.empty()) it->second = normalize_name_for_comparison(name, false);
  }
  return it->second;
}

std::string DiffSide::wf_name(trace::Uid uid, bool strip_details) const {
  if (!strip_details && !model_.name(uid).empty()) return *node_name(uid);
  return normalize_name_for_comparison(op_name(uid), strip_details);
}

bool DiffSide::is_kernel(trace::Uid uid) const {
  const trace::Category c = model_.event(uid).category;
  return c == trace::Category::kKernel || c == trace::Category::kGpuMemcpy;
}

bool DiffSide::is_cpu_op(trace::Uid uid) const {
  return model_.event(uid).category == trace::Category::kCpuOp;
}

bool DiffSide::is_graph_launch(trace::Uid uid) const {
  const std::string_view name = model_.name(uid);
  return name == "hipGraphLaunch" || name == "cudaGraphLaunch";
}

bool DiffSide::is_dispatch(trace::Uid uid) const {
  return trace::is_runtime_category(model_.event(uid).category) && !is_graph_launch(uid);
}

double DiffSide::ts(trace::Uid uid) const {
  return (model_.event(uid).flags & trace::kHasTs) != 0 ? model_.ts_us(uid) : 0.0;
}

trace::Uid DiffSide::top_level_root(trace::Uid start) {
  trace::Uid root = start;
  while (parent(root) != trace::kNoUid) root = parent(root);
  trace::Uid current = root;
  while (true) {
    const auto kids = children(current);
    if (kids.size() != 1) break;
    const trace::Uid child = kids.front();
    if (is_cpu_op(child) || is_dispatch(child)) break;
    current = child;
  }
  if (current != root) {
    // TraceLens rewrites the tree in place here; later root searches see the rewrite.
    std::vector<trace::Uid> moved(children(current).begin(), children(current).end());
    for (const trace::Uid child : moved) parent_override_[child] = root;
    children_override_[root] = std::move(moved);
  }
  return current;
}

}  // namespace loupe::core::prepare::trace_diff
