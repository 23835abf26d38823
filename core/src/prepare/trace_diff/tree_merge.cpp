#include "tree_merge.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "alignment.hpp"

namespace loupe::core::prepare::trace_diff {
namespace {

using Uids = std::vector<trace::Uid>;
using Kind = EditOp::Kind;

bool has_unmatched(const EditOps& ops) {
  return std::any_of(ops.begin(), ops.end(),
                     [](const EditOp& op) { return op.kind != Kind::kMatch; });
}

class Merger {
 public:
  Merger(DiffSide& side1, DiffSide& side2, AlignContext& context)
      : side1_(side1), side2_(side2), context_(context) {}

  MergedTree run() {
    const Uids roots1 = top_level_roots(side1_);
    const Uids roots2 = top_level_roots(side2_);
    const std::size_t count = std::max(roots1.size(), roots2.size());
    for (std::size_t k = 0; k < count; ++k) {
      const trace::Uid uid1 = k < roots1.size() ? roots1[k] : trace::kNoUid;
      const trace::Uid uid2 = k < roots2.size() ? roots2[k] : trace::kNoUid;
      tree_.roots.push_back(merge(uid1, uid2));
    }
    return std::move(tree_);
  }

 private:
  // The distinct top-level roots of the cpu root nodes, in cpu-root order.
  static Uids top_level_roots(DiffSide& side) {
    Uids roots;
    std::unordered_set<trace::Uid> seen;
    for (const trace::Uid cpu_root : side.tree().cpu_root_nodes()) {
      const trace::Uid root = side.top_level_root(cpu_root);
      if (seen.insert(root).second) roots.push_back(root);
    }
    return roots;
  }

  static Uids gpu_path_children(const DiffSide& side, trace::Uid uid) {
    Uids out;
    for (const trace::Uid child : side.children(uid)) {
      if (side.gpu_path(child)) out.push_back(child);
    }
    return out;
  }

  // Orders comparison names held by the sides' name caches (stable addresses) by value, so
  // the maps below copy no string.
  struct NameLess {
    bool operator()(const std::optional<std::string>* a,
                    const std::optional<std::string>* b) const {
      return *a < *b;
    }
  };

  // GPU-path children of both nodes; a name found on the GPU path of only one side also pulls
  // in the other side's (non-GPU-path) child of that name. Each list sorted by ts.
  std::pair<Uids, Uids> children_with_missing(trace::Uid uid1, trace::Uid uid2) const {
    using NamePtr = const std::optional<std::string>*;
    Uids gpu1, gpu2;
    std::map<NamePtr, trace::Uid, NameLess> all1, all2;  // name -> last child
    std::set<NamePtr, NameLess> names1, names2;
    const auto scan = [](const DiffSide& side, trace::Uid uid, Uids& gpu, auto& all, auto& names) {
      if (uid == trace::kNoUid) return;
      for (const trace::Uid child : side.children(uid)) {
        const NamePtr name = &side.node_name(child);
        all.insert_or_assign(name, child);
        if (side.gpu_path(child)) {
          gpu.push_back(child);
          names.insert(name);
        }
      }
    };
    scan(side1_, uid1, gpu1, all1, names1);
    scan(side2_, uid2, gpu2, all2, names2);
    for (const NamePtr name : names1) {
      if (names2.count(name) == 0) {
        if (const auto it = all2.find(name); it != all2.end()) gpu2.push_back(it->second);
      }
    }
    for (const NamePtr name : names2) {
      if (names1.count(name) == 0) {
        if (const auto it = all1.find(name); it != all1.end()) gpu1.push_back(it->second);
      }
    }
    return {side1_.sorted_by_ts(std::move(gpu1)), side2_.sorted_by_ts(std::move(gpu2))};
  }

  // Descends through nodes with exactly one GPU-path child; stops at a dispatch call, at a
  // cpu_op that calls a dispatch itself, or where the GPU path forks or ends. Returns the node
  // reached and, when it forks there, its GPU-path children (children order).
  static std::pair<trace::Uid, Uids> collapse_single_gpu_child(const DiffSide& side,
                                                               trace::Uid uid) {
    trace::Uid current = uid;
    while (true) {
      if (side.is_dispatch(current)) return {current, {}};
      const auto kids = side.children(current);
      if (side.is_cpu_op(current) && std::any_of(kids.begin(), kids.end(), [&](trace::Uid c) {
            return side.is_dispatch(c);
          })) {
        return {current, {}};
      }
      Uids gpu = gpu_path_children(side, current);
      if (gpu.size() != 1) return {current, std::move(gpu)};
      current = gpu.front();
    }
  }

  static bool any_dispatch(const DiffSide& side, const Uids& uids) {
    return std::any_of(uids.begin(), uids.end(), [&](trace::Uid u) { return side.is_dispatch(u); });
  }

  EditOps align(const Uids& c1, const Uids& c2) {
    if (c1.size() == c2.size() && !any_dispatch(side1_, c1) && !any_dispatch(side2_, c2)) {
      return positional_matches(c1.size());
    }
    return align_children(c1, c2, side1_, side2_, false, context_);
  }

  // Phase 3: an unmatched pair where one node wraps the other's operation (or both wrap the
  // same list of GPU-path children) is replaced by those children, and the lists re-aligned
  // with the earlier matches kept.
  bool reconcile_unmatched(EditOps& ops, Uids& c1, Uids& c2) {
    std::vector<std::size_t> deletes, inserts;
    for (const EditOp& op : ops) {
      if (op.kind == Kind::kDelete) deletes.push_back(op.i);
      if (op.kind == Kind::kInsert) inserts.push_back(op.j);
    }
    if (deletes.empty() || inserts.empty()) return false;
    std::map<std::size_t, Uids> sub1, sub2;
    const auto skipped = [](const DiffSide& side, trace::Uid uid) {
      const trace::Category c = side.model().event(uid).category;
      return (c == trace::Category::kKernel || trace::is_runtime_category(c)) &&
             !side.is_graph_launch(uid);
    };
    using Names = std::vector<std::optional<std::string>>;
    struct Candidate {
      std::size_t index;
      const std::optional<std::string>* name;
      Uids imm;  // GPU-path children
      Names names;
    };
    const auto candidates = [&](const DiffSide& side, const Uids& list,
                                const std::vector<std::size_t>& indices) {
      std::vector<Candidate> out;
      for (const std::size_t k : indices) {
        if (skipped(side, list[k])) continue;
        Candidate c{k, &side.node_name(list[k]), gpu_path_children(side, list[k]), {}};
        for (const trace::Uid u : c.imm) c.names.push_back(side.node_name(u));
        out.push_back(std::move(c));
      }
      return out;
    };
    // TraceLens tests every (deleted, inserted) pair of non-skipped nodes: the deleted node's
    // name among the inserted one's children names replaces the inserted one, and the other
    // way round; equal non-empty children name lists replace both. Since a replacement only
    // depends on the node replaced, it is enough to know, for each node, whether some node
    // on the other side satisfies a condition: sets of the other side's names and lists.
    const std::vector<Candidate> del = candidates(side1_, c1, deletes);
    const std::vector<Candidate> ins = candidates(side2_, c2, inserts);
    if (!del.empty() && !ins.empty()) {
      const auto name_set = [](const std::vector<Candidate>& cs) {
        std::set<std::string> names;
        for (const Candidate& c : cs) {
          if (*c.name) names.insert(**c.name);
        }
        return names;
      };
      const auto list_set = [](const std::vector<Candidate>& cs) {
        std::set<Names> lists;
        for (const Candidate& c : cs) {
          if (!c.imm.empty()) lists.insert(c.names);
        }
        return lists;
      };
      const std::set<std::string> del_names = name_set(del), ins_names = name_set(ins);
      const std::set<Names> del_lists = list_set(del), ins_lists = list_set(ins);
      const auto replaced = [](const Candidate& c, const std::set<std::string>& other_names,
                               const std::set<Names>& other_lists) {
        for (const auto& n : c.names) {
          if (n && other_names.count(*n) != 0) return true;
        }
        return !c.imm.empty() && other_lists.count(c.names) != 0;
      };
      for (const Candidate& c : del) {
        if (replaced(c, ins_names, ins_lists)) sub1[c.index] = c.imm;
      }
      for (const Candidate& c : ins) {
        if (replaced(c, del_names, del_lists)) sub2[c.index] = c.imm;
      }
    }
    if (sub1.empty() && sub2.empty()) return false;
    const auto expand = [](const DiffSide& side, const Uids& list, const auto& sub) {
      Uids out;
      for (std::size_t k = 0; k < list.size(); ++k) {
        if (const auto it = sub.find(k); it != sub.end()) {
          out.insert(out.end(), it->second.begin(), it->second.end());
        } else {
          out.push_back(list[k]);
        }
      }
      return side.sorted_by_ts(std::move(out));
    };
    Uids recon1 = expand(side1_, c1, sub1);
    Uids recon2 = expand(side2_, c2, sub2);

    // Earlier matches stay pinned (located by uid: the last position holding it).
    std::unordered_map<trace::Uid, std::size_t> pos1, pos2;
    for (std::size_t k = 0; k < recon1.size(); ++k) pos1[recon1[k]] = k;
    for (std::size_t k = 0; k < recon2.size(); ++k) pos2[recon2[k]] = k;
    EditOps next;
    std::set<std::size_t> pinned1, pinned2;
    for (const EditOp& op : ops) {
      if (op.kind != Kind::kMatch) continue;
      const auto r1 = pos1.find(c1[op.i]);
      const auto r2 = pos2.find(c2[op.j]);
      if (r1 == pos1.end() || r2 == pos2.end()) continue;
      next.push_back({Kind::kMatch, r1->second, r2->second});
      pinned1.insert(r1->second);
      pinned2.insert(r2->second);
    }
    std::vector<std::size_t> free1, free2;
    for (std::size_t k = 0; k < recon1.size(); ++k) {
      if (pinned1.count(k) == 0) free1.push_back(k);
    }
    for (std::size_t k = 0; k < recon2.size(); ++k) {
      if (pinned2.count(k) == 0) free2.push_back(k);
    }
    if (!free1.empty() && !free2.empty()) {
      Uids items1, items2;
      for (const std::size_t k : free1) items1.push_back(recon1[k]);
      for (const std::size_t k : free2) items2.push_back(recon2[k]);
      for (const EditOp& op : align(items1, items2)) {
        if (op.kind == Kind::kMatch) next.push_back({Kind::kMatch, free1[op.i], free2[op.j]});
        if (op.kind == Kind::kDelete) next.push_back({Kind::kDelete, free1[op.i], 0});
        if (op.kind == Kind::kInsert) next.push_back({Kind::kInsert, 0, free2[op.j]});
      }
    } else {
      for (const std::size_t k : free1) next.push_back({Kind::kDelete, k, 0});
      for (const std::size_t k : free2) next.push_back({Kind::kInsert, 0, k});
    }
    ops = std::move(next);
    c1 = std::move(recon1);
    c2 = std::move(recon2);
    return true;
  }

  // Phase 4: unmatched nodes on both sides are collapsed through single-child wrappers and
  // re-aligned, first by name, then by the aggressive name.
  void canonicalize_unmatched(EditOps& ops, Uids& c1, Uids& c2) {
    std::vector<std::size_t> unmatched1, unmatched2;
    for (const EditOp& op : ops) {
      if (op.kind == Kind::kDelete) unmatched1.push_back(op.i);
      if (op.kind == Kind::kInsert) unmatched2.push_back(op.j);
    }
    if (unmatched1.empty() || unmatched2.empty()) return;
    Uids collapsed1, collapsed2;
    for (const std::size_t i : unmatched1) {
      collapsed1.push_back(collapse_single_gpu_child(side1_, c1[i]).first);
    }
    for (const std::size_t j : unmatched2) {
      collapsed2.push_back(collapse_single_gpu_child(side2_, c2[j]).first);
    }
    const EditOps pass1 = align_children(collapsed1, collapsed2, side1_, side2_, false, context_);
    std::vector<std::size_t> still1, still2;
    for (const EditOp& op : pass1) {
      if (op.kind == Kind::kDelete) still1.push_back(op.i);
      if (op.kind == Kind::kInsert) still2.push_back(op.j);
    }
    EditOps collapsed_ops;
    if (!still1.empty() && !still2.empty()) {
      Uids items1, items2;
      for (const std::size_t k : still1) items1.push_back(collapsed1[k]);
      for (const std::size_t k : still2) items2.push_back(collapsed2[k]);
      for (const EditOp& op : pass1) {
        if (op.kind == Kind::kMatch) collapsed_ops.push_back(op);
      }
      for (const EditOp& op : align_children(items1, items2, side1_, side2_, true, context_)) {
        if (op.kind == Kind::kMatch)
          collapsed_ops.push_back({Kind::kMatch, still1[op.i], still2[op.j]});
        if (op.kind == Kind::kDelete) collapsed_ops.push_back({Kind::kDelete, still1[op.i], 0});
        if (op.kind == Kind::kInsert) collapsed_ops.push_back({Kind::kInsert, 0, still2[op.j]});
      }
    } else {
      collapsed_ops = pass1;
    }
    EditOps next;
    for (const EditOp& op : ops) {
      if (op.kind == Kind::kMatch) next.push_back(op);
    }
    for (const EditOp& op : collapsed_ops) {
      if (op.kind != Kind::kInsert) {
        c1[unmatched1[op.i]] = collapsed1[op.i];
      }
      if (op.kind != Kind::kDelete) {
        c2[unmatched2[op.j]] = collapsed2[op.j];
      }
      switch (op.kind) {
        case Kind::kMatch:
          next.push_back({Kind::kMatch, unmatched1[op.i], unmatched2[op.j]});
          break;
        case Kind::kDelete:
          next.push_back({Kind::kDelete, unmatched1[op.i], 0});
          break;
        case Kind::kInsert:
          next.push_back({Kind::kInsert, 0, unmatched2[op.j]});
          break;
      }
    }
    ops = std::move(next);
  }

  // One node of traverse_and_merge in progress: its aligned children lists and how many of
  // them have been merged.
  struct Frame {
    std::size_t id;
    Uids c1, c2;
    EditOps ops;
    std::size_t next = 0;
    std::vector<std::size_t> children;
  };

  static std::uint64_t key(trace::Uid uid1, trace::Uid uid2) {
    return (std::uint64_t{uid1} << 32) | uid2;
  }

  // Gives the pair the next merged id and aligns its children (pushed as a new frame).
  std::size_t open(trace::Uid uid1, trace::Uid uid2, std::vector<Frame>& stack) {
    const std::size_t id = tree_.nodes.size();
    tree_.nodes.emplace_back();
    ids_.emplace(key(uid1, uid2), id);

    auto [c1, c2] = children_with_missing(uid1, uid2);
    // Phase 1: one side has a single GPU child, the other several: descend the single one.
    if (c1.size() != c2.size()) {
      if (c1.size() == 1) {
        auto [node, deeper] = collapse_single_gpu_child(side1_, c1.front());
        if (!deeper.empty()) {
          uid1 = node;
          c1 = std::move(deeper);
        }
      } else if (c2.size() == 1) {
        auto [node, deeper] = collapse_single_gpu_child(side2_, c2.front());
        if (!deeper.empty()) {
          uid2 = node;
          c2 = std::move(deeper);
        }
      }
    }
    // Phase 2: alignment of the lists.
    EditOps ops = align(c1, c2);
    // Phase 3 and 4: wrappers.
    if (has_unmatched(ops)) reconcile_unmatched(ops, c1, c2);
    canonicalize_unmatched(ops, c1, c2);

    MergedNode& node = tree_.nodes[id];
    node.uid1 = uid1;
    node.uid2 = uid2;
    Frame frame{id, std::move(c1), std::move(c2), std::move(ops), 0, {}};
    frame.children.reserve(frame.ops.size());
    stack.push_back(std::move(frame));
    return id;
  }

  // TraceDiff's traverse_and_merge: returns the merged id of the pair. Depth-first with an
  // explicit stack; ids are handed out in the recursion's pre-order, and a pair met again
  // (checked when it is reached, as the recursion does) gets its first id back.
  std::size_t merge(trace::Uid uid1, trace::Uid uid2) {
    if (const auto it = ids_.find(key(uid1, uid2)); it != ids_.end()) return it->second;
    std::vector<Frame> stack;
    const std::size_t root = open(uid1, uid2, stack);
    while (!stack.empty()) {
      Frame& top = stack.back();
      if (top.next == top.ops.size()) {
        tree_.nodes[top.id].children = std::move(top.children);
        stack.pop_back();
        continue;
      }
      const EditOp op = top.ops[top.next++];
      const trace::Uid child1 = op.kind == Kind::kInsert ? trace::kNoUid : top.c1[op.i];
      const trace::Uid child2 = op.kind == Kind::kDelete ? trace::kNoUid : top.c2[op.j];
      if (const auto it = ids_.find(key(child1, child2)); it != ids_.end()) {
        top.children.push_back(it->second);
        continue;
      }
      const std::size_t parent = stack.size() - 1;
      const std::size_t id = open(child1, child2, stack);  // may reallocate the stack
      stack[parent].children.push_back(id);
    }
    return root;
  }

  DiffSide& side1_;
  DiffSide& side2_;
  AlignContext& context_;
  MergedTree tree_;
  std::unordered_map<std::uint64_t, std::size_t> ids_;
};

}  // namespace

MergedTree merge_trees(DiffSide& side1, DiffSide& side2, AlignContext& context) {
  return Merger(side1, side2, context).run();
}

}  // namespace loupe::core::prepare::trace_diff
