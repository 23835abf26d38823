// Standalone module walk (spec docs/contracts/fusion.md §2.3): every host event with >= 2 GPU ops
// becomes a module entry keyed by its stripped name; later instances only add count and kernel
// time.
#include <string>
#include <unordered_map>
#include <vector>

#include "candidate.hpp"
#include "loupe/core/prepare/fusion_candidates.hpp"
#include "loupe/core/trace/gpu_event_index.hpp"

namespace loupe::core::prepare::fusion {

ModuleWalk module_walk(const trace::TraceModel& model, const trace::EventTree& tree,
                       const DurationReader& dur) {
  ModuleWalk walk;
  std::unordered_map<std::string, std::size_t> seen_base;  // base -> index in entries
  // Per kernel name: its type and eligibility, computed once (a model has far fewer distinct
  // kernel names than kernel launches).
  struct KernelFacts {
    std::string_view type;  // the classifier's cache outlives the walk
    bool eligible = false;
    bool already_fused = false;
  };
  std::unordered_map<trace::StringId, KernelFacts> facts;
  const auto facts_of = [&](Uid g) -> const KernelFacts& {
    const auto [it, inserted] = facts.try_emplace(model.event(g).name);
    if (inserted) {
      const std::string_view name = model.name(g);
      it->second = {classify_cached(name), kernel_eligible(name), kernel_already_fused(name)};
    }
    return it->second;
  };
  // Every module and every module nested in it asks for its GPU ops: laid out once.
  const trace::GpuEventIndex gpu_index(tree);
  std::vector<Uid> gpu;  // the current node's GPU ops (its capacity reused)
  const auto count = static_cast<Uid>(model.event_count());
  for (Uid uid = 0; uid < count; ++uid) {
    if (skipped_category(model.event(uid).category)) continue;
    if (!tree.has_gpu_events(uid)) continue;
    gpu_index.gpu_events(uid, gpu);
    if (gpu.size() < 2) continue;
    std::string base = strip_module_name(model.name(uid));
    if (base.empty()) continue;

    if (const auto it = seen_base.find(base); it != seen_base.end()) {
      Candidate& entry = walk.entries[it->second];
      entry.instance_count += 1;
      double instance_sum = 0.0;  // Python: total += sum(this instance's durations)
      bool instance_int = true;
      for (const Uid g : gpu) {
        if (model.event(g).category == trace::Category::kKernel) {
          const Duration d = dur(g);
          instance_sum += d.us;
          instance_int = instance_int && d.is_int;
        }
      }
      entry.total_kernel_time_us += instance_sum;
      entry.total_is_int = entry.total_is_int && instance_int;
      continue;
    }

    Candidate entry;
    bool has_fused = false;
    for (const Uid g : gpu) {
      if (model.event(g).category != trace::Category::kKernel) continue;
      CandidateKernel k;
      k.name = model.name(g);
      const KernelFacts& f = facts_of(g);
      k.type = f.type;
      const Duration d = dur(g);
      k.dur_us = d.us;
      k.dur_is_int = d.is_int;
      k.eligible = f.eligible;
      has_fused = has_fused || f.already_fused;
      k.gpu_op_uid = g;
      entry.kernels.push_back(k);
    }
    if (entry.kernels.size() < 2) continue;

    entry.module_name = std::string(model.name(uid));
    entry.base_name = base;
    entry.parent_chain = parent_chain(model, tree, uid);
    entry.kernel_count = static_cast<std::int64_t>(entry.kernels.size());
    for (const auto& k : entry.kernels) {
      if (k.eligible) ++entry.eligible_kernel_count;
      entry.type_signature.push_back(k.type);
      bool counted = false;
      for (auto& [type, n] : entry.type_summary) {
        if (type == k.type) {
          ++n;
          counted = true;
          break;
        }
      }
      if (!counted) entry.type_summary.emplace_back(k.type, 1);
      entry.total_kernel_time_us += k.dur_us;
      entry.total_is_int = entry.total_is_int && k.dur_is_int;
    }
    entry.has_fused_kernel = has_fused;
    entry.input_dims = input_dims_of(model, uid);
    seen_base.emplace(std::move(base), walk.entries.size());
    walk.entries.push_back(std::move(entry));
  }
  return walk;
}

}  // namespace loupe::core::prepare::fusion
