// The event tree exactly as TraceLens builds it (spec §2): host call stacks by time
// containment per (pid, tid) with TraceLens's tie-breaking and bleed rule, GPU ops attached
// to their launching runtime call through ac2g flows (or by correlation for graph launches),
// forward <-> backward links, nn.Module stacks. Node ids are event UIDs.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "loupe/core/trace/time_mode.hpp"
#include "loupe/core/trace/trace_model.hpp"

namespace loupe::core::trace {

struct TreeOptions {
  bool add_python_func = false;  // python_function events become host nodes (§2.0)
  TimeMode time_mode = TimeMode::kExact;
  // Ops whose name starts with one of these get the serving engine's step annotation that
  // encloses them (TraceLens's apply_annotation; see step_annotation()).
  std::vector<std::string> annotate_op_prefixes;
  // (runtime call, GPU op) links that replace the GPU op's own (capture-trace attribution,
  // capture_attribution.hpp: a replayed kernel linked to the call that captured it).
  std::vector<std::pair<Uid, Uid>> gpu_relinks;
  // Ops annotated the same way for Loupe's default mode only (serving_step_annotation()): the
  // other engines' attention ops, whose models need the step's token counts.
  std::vector<std::string> serving_annotate_op_prefixes;
};

enum class LinkingKey : std::uint8_t { kCorrelation, kExternalId };

// Diagnostics of the build (§5.8).
struct TreeStats {
  std::uint64_t host_events = 0;
  std::uint64_t host_without_time = 0;    // host-category events lacking ts or dur (skipped)
  std::uint64_t dropped_by_bleed = 0;     // §2.5 c, dropped
  std::uint64_t reparented_by_bleed = 0;  // §2.5 c, top popped (< 1 us, depth >= 2)
  std::uint64_t cpu_roots = 0;
  std::uint64_t runtime_calls = 0;
  std::uint64_t gpu_ops = 0;
  std::uint64_t gpu_linked = 0;
  std::uint64_t gpu_linked_twice = 0;         // attached by more than one runtime call
  std::uint64_t launches_without_gpu_op = 0;  // runtime call with an `s` flow but no GPU op found
  // cuda/hipGraphLaunch calls whose replayed kernels the trace does not hold (the profiler did
  // not capture the graph's kernels, or the trace was cut)
  std::uint64_t graph_launches_without_kernels = 0;
  std::uint64_t flows_ending_off_gpu = 0;  // the flow's `f` names no GPU op on its thread
  std::uint64_t flows_without_id = 0;
  std::uint64_t fwd_bwd_links = 0;
};

class EventTree {
 public:
  static EventTree build(const TraceModel& model, const TreeOptions& options = {});

  const TreeOptions& options() const { return options_; }
  LinkingKey linking_key() const { return linking_key_; }
  bool gpu_only() const { return gpu_only_; }
  const TreeStats& stats() const { return stats_; }

  Uid parent(Uid uid) const { return parent_[uid]; }
  // The runtime call that launched a GPU op on the execution timeline: its parent, except for
  // an op relinked to a captured call (TreeOptions::gpu_relinks), whose graph launch it is.
  Uid execution_launcher(Uid gpu) const {
    const auto it = relinked_from_.find(gpu);
    return it != relinked_from_.end() ? it->second : parent_[gpu];
  }
  // Host children in processing order, then GPU children in link order (TraceLens order).
  std::span<const Uid> children(Uid uid) const {
    const auto [begin, end] = child_range(uid);
    return {child_list_.data() + begin, child_list_.data() + end};
  }
  // Nodes of the tree: every event of the model it was built from, plus those added since.
  std::size_t node_count() const { return parent_.size(); }

  // Edits after the build, for ops synthesized above existing nodes (trace/pseudo_ops.hpp).
  // Each edit changes only what it names: a child list does not update the children's parent
  // links, nor the CPU-root list, unless the caller says so. A GPU op keeps its link order. An
  // edit invalidates the spans children() returned before it.
  // A node for an event just appended to the model (`node` == node_count()), no children.
  void add_node(Uid node, Uid parent);
  void append_child(Uid parent, Uid child);
  // False (nothing changed) when `child` is not a child of `parent`.
  bool remove_child(Uid parent, Uid child);
  bool replace_child(Uid parent, Uid old_child, Uid new_child);
  // `to` takes every child of `from` (in order, parent links updated); `from` keeps none.
  void move_children(Uid from, Uid to);
  void set_parent(Uid child, Uid parent) { parent_[child] = parent; }
  void remove_cpu_root(Uid uid) { std::erase(cpu_roots_, uid); }
  void append_cpu_root(Uid uid) { cpu_roots_.push_back(uid); }
  // Step annotations (TreeOptions::annotate_op_prefixes) for the ops added since the build,
  // which TraceLens annotates after its extensions ran.
  void annotate_added_ops(const TraceModel& model);
  bool linked(Uid uid) const { return (flags_[uid] & kLinked) != 0; }  // TraceLens `tree`
  bool cpu_op_root(Uid uid) const { return (flags_[uid] & kCpuOpRoot) != 0; }
  bool dropped_by_bleed(Uid uid) const { return (flags_[uid] & kDropped) != 0; }
  bool has_gpu_events(Uid uid) const { return (flags_[uid] & kHasGpu) != 0; }
  bool non_gpu_path(Uid uid) const;  // §2.7
  // §2.5 d: the nn.Module names enclosing a host node (["root"] when none); empty if the
  // node got none (not a host node, or dropped).
  std::vector<std::string> nn_module_stack(Uid uid) const;
  bool has_nn_module_stack(Uid uid) const { return nn_stack_[uid] != kNoIndex; }
  Uid fwd_event(Uid uid) const;  // kNoUid when none (§2.8)
  const std::vector<Uid>& bwd_events(Uid uid) const;
  // All GPU ops in the node's subtree, in TraceLens's order (launching runtime UID, then
  // position in the graph list). Duplicates kept if an op was linked twice.
  std::vector<Uid> gpu_events(Uid uid) const;
  const std::vector<Uid>& cpu_root_nodes() const { return cpu_roots_; }
  // The name of the first user annotation (by start time) that strictly encloses an op named
  // by `annotate_op_prefixes`, "NA" when none does; nullopt for every other event.
  std::optional<std::string_view> step_annotation(const TraceModel& model, Uid uid) const;
  // The same for the ops named by `serving_annotate_op_prefixes` (default mode).
  std::optional<std::string_view> serving_step_annotation(const TraceModel& model, Uid uid) const;
  // Every GPU op that was linked, in UID order.
  std::vector<Uid> linked_gpu_ops(const TraceModel& model) const;

 private:
  friend class GpuEventIndex;  // reads the child lists and GPU link order (gpu_event_index.hpp)
  enum Flag : std::uint8_t {
    kLinked = 1,
    kCpuOpRoot = 2,
    kDropped = 4,
    kHasGpu = 8,
    kGpuCategory = 16,
    kEdited = 32  // the child list was edited after the build (edited_children_)
  };
  struct NnFrame {
    std::uint32_t parent = kNoIndex;
    std::string name;
  };
  template <typename Time>
  void build_host_tree(const TraceModel& model, std::vector<std::pair<Uid, Uid>>& host_edges);
  // The §2.4 indexes the GPU ops are attached from (event_tree.cpp); they read the model only.
  struct GpuLinks;
  GpuLinks index_gpu_links(const TraceModel& model);
  std::int64_t link_of(const std::optional<EventDetail>& detail) const;
  void attach_gpu_ops(const TraceModel& model, const GpuLinks& links,
                      std::vector<std::pair<Uid, Uid>>& gpu_edges);
  void relink_gpu_ops(const TraceModel& model, std::vector<std::pair<Uid, Uid>>& gpu_edges);
  template <typename Time>
  void link_fwd_bwd(const TraceModel& model);
  std::uint32_t nn_child(std::uint32_t parent, std::string name);
  void annotate_ops(const TraceModel& model, Uid first = 0);
  // [begin, end) of a node's children in child_list_ (an edited node's list sits at the end).
  std::pair<std::uint32_t, std::uint32_t> child_range(Uid uid) const {
    if ((flags_[uid] & kEdited) != 0) return edited_children_.at(uid);
    return {child_offsets_[uid], child_offsets_[uid + 1]};
  }
  // Rewrites a node's child list (with the GPU link order of each child) at the end.
  void set_children(Uid uid, const std::vector<std::pair<Uid, std::uint32_t>>& children);
  std::vector<std::pair<Uid, std::uint32_t>> child_entries(Uid uid) const;
  void mark_gpu_child(Uid parent, Uid child);

  TreeOptions options_;
  LinkingKey linking_key_ = LinkingKey::kCorrelation;
  bool gpu_only_ = false;
  TreeStats stats_;
  std::vector<Uid> parent_;
  std::unordered_map<Uid, Uid> relinked_from_;  // relinked GPU op -> its own launch call
  std::vector<std::uint8_t> flags_;
  std::vector<std::uint32_t> nn_stack_;
  std::vector<std::uint32_t> child_offsets_;
  std::vector<Uid> child_list_;
  std::vector<std::uint32_t> child_edge_seq_;  // GPU edge order for GPU children, else kNoIndex
  std::vector<Uid> cpu_roots_;
  std::unordered_map<Uid, std::pair<std::uint32_t, std::uint32_t>> edited_children_;
  Uid built_nodes_ = 0;             // node count at the build
  std::vector<NnFrame> nn_frames_;  // [0] = root
  std::unordered_map<std::string, std::uint32_t> nn_frame_index_;
  std::unordered_map<Uid, Uid> fwd_event_;
  std::unordered_map<Uid, std::vector<Uid>> bwd_events_;
  std::unordered_map<Uid, Uid> step_annotation_;  // annotated op -> annotation event, or kNoUid
  std::unordered_map<Uid, Uid> serving_step_annotation_;  // the same, default-mode prefixes
};

}  // namespace loupe::core::trace
