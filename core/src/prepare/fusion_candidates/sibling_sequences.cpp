// Standalone sibling sequences (spec docs/contracts/fusion.md §2.4): collected perf events with
// exactly one kernel, grouped by their parent; a parent with >= 2 such children is a candidate.
#include <string>
#include <unordered_map>
#include <vector>

#include "candidate.hpp"
#include "loupe/core/prepare/fusion_candidates.hpp"
#include "loupe/core/prepare/unified_perf_events.hpp"

namespace loupe::core::prepare::fusion {

std::vector<Candidate> sibling_sequences(const trace::TraceModel& model,
                                         std::span<const unified::CollectedEvent> collected,
                                         const DurationReader& dur) {
  std::vector<std::pair<Uid, std::vector<CandidateKernel>>> groups;
  std::unordered_map<Uid, std::size_t> group_index;
  for (const auto& ev : collected) {
    if (ev.gpu_events.size() != 1 || ev.parent == trace::kNoUid) continue;
    const Uid g = ev.gpu_events.front();
    if (model.event(g).category != trace::Category::kKernel) continue;
    CandidateKernel k;
    k.op = ev.name;
    k.name = model.name(g);
    k.type = classify_cached(k.name);
    const Duration d = dur(g);
    k.dur_us = d.us;
    k.dur_is_int = d.is_int;
    k.gpu_op_uid = g;
    auto [it, inserted] = group_index.emplace(ev.parent, groups.size());
    if (inserted) groups.emplace_back(ev.parent, std::vector<CandidateKernel>{});
    groups[it->second].second.push_back(k);
  }

  std::vector<Candidate> out;
  std::unordered_map<std::string, std::size_t> seen;
  for (auto& [parent, children] : groups) {
    if (children.size() < 2) continue;
    std::string sbase = strip_module_name(model.name(parent));
    double sum = 0.0;
    bool sum_int = true;
    for (const auto& k : children) {
      sum += k.dur_us;
      sum_int = sum_int && k.dur_is_int;
    }
    if (const auto it = seen.find(sbase); it != seen.end()) {
      out[it->second].instance_count += 1;
      out[it->second].total_kernel_time_us += sum;
      out[it->second].total_is_int = out[it->second].total_is_int && sum_int;
      continue;
    }
    Candidate c;
    c.sibling = true;
    c.module_name = std::string(model.name(parent));
    c.base_name = sbase;
    for (const auto& k : children) c.type_signature.push_back(k.type);
    c.kernels = std::move(children);
    c.total_kernel_time_us = sum;
    c.total_is_int = sum_int;
    c.input_dims = input_dims_of(model, parent);
    seen.emplace(std::move(sbase), out.size());
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace loupe::core::prepare::fusion
