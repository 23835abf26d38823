// collect_unified_perf_events (docs/contracts/trace_model.md §3.6.1): on every host path the highest node with
// a perf model, else the leaf op that launches kernels, then synthetic rows for the rest.
#include "loupe/core/prepare/unified_perf_events.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "loupe/core/prepare/perf_model.hpp"
#include "loupe/core/prepare/trace_op_args.hpp"

namespace loupe::core::prepare::unified {
namespace {

using trace::Category;
using trace::Uid;

class Collector {
 public:
  Collector(const trace::TraceModel& model, const trace::EventTree& tree)
      : model_(model),
        tree_(tree),
        visited_(model.event_count(), 0),
        has_model_(model.event_count(), kUnknown),
        desc_model_(model.event_count(), kUnknown) {}

  std::vector<CollectedEvent> run() {
    const bool python = tree_.options().add_python_func;
    if (python) {
      for (Uid u = 0; u < model_.event_count(); ++u) {
        if (cat(u) == Category::kPythonFunction && tree_.parent(u) == trace::kNoUid &&
            !tree_.dropped_by_bleed(u) && tree_.has_gpu_events(u)) {
          visit(u);
        }
      }
    }
    for (const Uid r : tree_.cpu_root_nodes()) visit(r);
    add_synthetic();
    return std::move(out_);
  }

 private:
  Category cat(Uid u) const { return model_.event(u).category; }
  bool launches(Uid u) const { return tree_.has_gpu_events(u); }
  // Memoized per node, as desc_model(): a visit asks both of every node below it, at every
  // level of the walk down (a model's python frames nest tens of levels deep).
  bool has_model(Uid u) const {
    if (has_model_[u] == kUnknown) has_model_[u] = trace_op_has_model(model_, u) ? 1 : 0;
    return has_model_[u] != 0;
  }

  bool is_nccl_name(std::string_view name) const {
    std::string low(name);
    std::transform(low.begin(), low.end(), low.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return low.find("nccl") != std::string::npos || low.find("rccl") != std::string::npos;
  }
  bool is_nccl(Uid u) const {
    for (const Uid g : tree_.gpu_events(u)) {
      if (is_nccl_name(model_.name(g))) return true;
    }
    return false;
  }

  bool leaf_cpu_op(Uid u) const {
    if (cat(u) != Category::kCpuOp) return false;
    return reaches_gpu(u, 0);
  }
  bool reaches_gpu(Uid u, int depth) const {
    if (depth > 10) return false;
    for (const Uid c : tree_.children(u)) {
      const Category cc = cat(c);
      if (trace::is_gpu_category(cc)) return true;
      if ((cc == Category::kCudaRuntime || cc == Category::kPythonFunction) &&
          reaches_gpu(c, depth + 1)) {
        return true;
      }
    }
    return false;
  }

  bool desc_model(Uid u) const {
    if (desc_model_[u] == kUnknown) desc_model_[u] = compute_desc_model(u) ? 1 : 0;
    return desc_model_[u] != 0;
  }
  bool compute_desc_model(Uid u) const {
    for (const Uid c : tree_.children(u)) {
      const Category cc = cat(c);
      if (cc != Category::kCpuOp && cc != Category::kPythonFunction) continue;
      if (cc == Category::kCpuOp && has_model(c) && launches(c)) return true;
      if (desc_model(c)) return true;
    }
    return false;
  }

  int count_named(Uid u, std::string_view main, bool any) const {
    int n = 0;
    for (const Uid c : tree_.children(u)) {
      if (cat(c) != Category::kCpuOp) continue;
      if (launches(c) && (any || model_.name(c) == main)) ++n;
      n += count_named(c, main, any);
    }
    return n;
  }

  // The forward op when `u` is the sole backward op of a modeled forward op, else kNoUid.
  Uid sole_bwd(Uid u) const {
    Uid w = trace::kNoUid;
    Uid a = tree_.parent(u);
    for (int i = 0; i < 5 && a != trace::kNoUid; ++i, a = tree_.parent(a)) {
      const Uid f = tree_.fwd_event(a);
      if (f != trace::kNoUid && f != 0) {
        w = a;
        break;
      }
    }
    if (w == trace::kNoUid) return trace::kNoUid;
    // The forward op's class must declare a backward category and define backward formulas.
    const perf::ModelInfo* info = perf::find_model(model_.name(tree_.fwd_event(w)));
    if (info == nullptr || info->bwd_category.empty() || !info->has_backward) return trace::kNoUid;
    const std::string_view wname = model_.name(w);
    const auto colon = wname.find(": ");
    const bool any = colon == std::string_view::npos;
    const std::string_view main = any ? std::string_view() : wname.substr(colon + 2);
    return count_named(w, main, any) == 1 ? tree_.fwd_event(w) : trace::kNoUid;
  }

  void collect(Uid u, CollectedKind kind, Uid forward = trace::kNoUid) {
    out_.push_back(
        {u, std::string(model_.name(u)), tree_.parent(u), tree_.gpu_events(u), kind, forward});
  }

  void visit_children(Uid u) {
    for (const Uid c : tree_.children(u)) visit(c);
  }

  void visit(Uid u) {
    if (visited_[u] != 0) return;
    visited_[u] = 1;
    const Category c = cat(u);
    if (trace::is_gpu_category(c)) return;
    if (!tree_.options().add_python_func && c != Category::kCpuOp) return;
    if (!launches(u)) return;
    if (has_model(u)) return collect(u, CollectedKind::kModeled);
    if (const Uid forward = sole_bwd(u); forward != trace::kNoUid) {
      if (desc_model(u)) return visit_children(u);
      return collect(u, CollectedKind::kSoleBackward, forward);
    }
    if (desc_model(u)) return visit_children(u);
    if (leaf_cpu_op(u)) {
      std::vector<Uid> modeled;
      for (const Uid ch : tree_.children(u)) {
        if (cat(ch) == Category::kCpuOp && has_model(ch) && launches(ch)) modeled.push_back(ch);
      }
      if (!modeled.empty()) {
        for (const Uid ch : modeled) visit(ch);
        return;
      }
      if (!is_nccl(u)) collect(u, CollectedKind::kLeaf);
      return;
    }
    visit_children(u);
  }

  void add_synthetic() {
    std::unordered_set<Uid> covered;
    for (const auto& e : out_) covered.insert(e.gpu_events.begin(), e.gpu_events.end());
    std::vector<CollectedEvent> orphans;
    std::unordered_map<Uid, std::size_t> orphan_group;  // runtime parent -> first position
    std::vector<std::vector<CollectedEvent>> groups;
    std::vector<CollectedEvent> backed;
    for (Uid g = 0; g < model_.event_count(); ++g) {
      if (!trace::is_gpu_category(cat(g)) || covered.contains(g)) continue;
      if (is_nccl_name(model_.name(g))) continue;
      const Uid runtime = tree_.parent(g);
      if (runtime == trace::kNoUid) continue;
      Uid a = runtime;
      while (a != trace::kNoUid && cat(a) != Category::kCpuOp) a = tree_.parent(a);
      const Uid base = a != trace::kNoUid ? a : runtime;
      CollectedEvent e{
          base,
          std::string(model_.name(base)) + "->" + std::string(model_.name(g)) + " (Synthetic Op)",
          tree_.parent(base),
          {g},
          CollectedKind::kSynthetic};
      if (a != trace::kNoUid) {
        backed.push_back(std::move(e));
      } else {
        auto [it, inserted] = orphan_group.emplace(runtime, groups.size());
        if (inserted) groups.emplace_back();
        groups[it->second].push_back(std::move(e));
      }
    }
    for (auto& group : groups) {
      for (auto& e : group) out_.push_back(std::move(e));
    }
    for (auto& e : backed) out_.push_back(std::move(e));
  }

  static constexpr std::int8_t kUnknown = -1;
  const trace::TraceModel& model_;
  const trace::EventTree& tree_;
  std::vector<char> visited_;
  mutable std::vector<std::int8_t> has_model_;   // per node: kUnknown, 0 or 1
  mutable std::vector<std::int8_t> desc_model_;  // per node: kUnknown, 0 or 1
  std::vector<CollectedEvent> out_;
};

}  // namespace

std::vector<CollectedEvent> collect_unified_perf_events(const trace::TraceModel& model,
                                                        const trace::EventTree& tree) {
  return Collector(model, tree).run();
}

}  // namespace loupe::core::prepare::unified
