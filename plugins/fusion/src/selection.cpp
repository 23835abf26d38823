#include "selection.hpp"

#include <cstdio>
#include <set>

#include "patterns.hpp"

namespace loupe::fusion {

namespace {

// "BatchNorm2d_15" -> "BatchNorm2d": the module type of a parent_chain entry.
std::string strip_instance_suffix(const std::string& name) {
  const size_t underscore = name.rfind('_');
  if (underscore == std::string::npos || underscore + 1 == name.size()) return name;
  for (size_t i = underscore + 1; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return name;
  }
  return name.substr(0, underscore);
}

// True when `inner` runs inside a module of the kept candidate's type and launches only
// kernels that the kept candidate also launches (the first instances may differ, so the
// gpu_op_uid sets do not meet: ResNet's aten::native_batch_norm inside BatchNorm2d).
bool nested_inside(const Candidate& inner, const Estimate& e, const Candidate& outer,
                   const Estimate& kept) {
  bool parent_match = false;
  for (const auto& parent : inner.parent_chain) {
    if (!outer.base_name.empty() && strip_instance_suffix(parent) == outer.base_name) {
      parent_match = true;
      break;
    }
  }
  if (!parent_match) return false;
  std::set<std::string> outer_names;
  for (const auto& k : kept.kernels) outer_names.insert(k.name);
  for (const auto& k : e.kernels) {
    if (outer_names.count(k.name) == 0) return false;
  }
  return true;
}

// The first kept estimate that shares a launched kernel (gpu_op_uid) with e, or that e is
// nested inside.
const Estimate* first_overlap(const Estimate& e, const std::vector<Estimate>& kept,
                              const std::vector<Candidate>& candidates) {
  std::set<std::int64_t> mine;
  for (const auto& k : e.kernels) {
    if (k.gpu_op_uid) mine.insert(*k.gpu_op_uid);
  }
  for (const auto& other : kept) {
    for (const auto& k : other.kernels) {
      if (k.gpu_op_uid && mine.count(*k.gpu_op_uid) > 0) return &other;
    }
    if (nested_inside(candidates.at(e.candidate), e, candidates.at(other.candidate), other)) {
      return &other;
    }
  }
  return nullptr;
}

}  // namespace

Selection select_estimates(std::vector<Estimate> sorted, const std::vector<Candidate>& candidates,
                           const SelectionOptions& options) {
  Selection out;
  double kept_savings_ms = 0.0;
  for (auto& e : sorted) {
    const Candidate& c = candidates.at(e.candidate);
    if (options.reject_containers) {
      if (auto why = container_reason(c)) {
        out.rejected.push_back({e.candidate, e.operation, "R5", *why});
        continue;
      }
    }
    if (options.non_overlapping) {
      if (const Estimate* owner = first_overlap(e, out.kept, candidates)) {
        const Candidate& other = candidates.at(owner->candidate);
        out.rejected.push_back(
            {e.candidate, e.operation, "Q2",
             "its GPU kernels are already counted in the higher-impact candidate `" +
                 (other.module_name.empty() ? other.operation : other.module_name) + "`"});
        continue;
      }
    }
    if (options.run_total_ms > 0 && kept_savings_ms + e.savings_high_ms > options.run_total_ms) {
      char buf[160];
      std::snprintf(buf, sizeof(buf),
                    "its %.3f ms saving would take the findings' savings past the run's %.3f ms",
                    e.savings_high_ms, options.run_total_ms);
      out.rejected.push_back({e.candidate, e.operation, "I2", buf});
      continue;
    }
    kept_savings_ms += e.savings_high_ms;
    out.kept.push_back(std::move(e));
  }
  return out;
}

}  // namespace loupe::fusion
