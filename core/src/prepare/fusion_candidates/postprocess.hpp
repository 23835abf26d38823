// Standalone post-processing with unified_perf_summary.csv (spec docs/contracts/fusion.md §2.6):
// attention narrowing, kernel-set dedup, data split enrichment.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "candidate.hpp"
#include "perf_lookup.hpp"

namespace loupe::core::prepare::fusion {

// The softmax core [qk..pv] of a kernel list, or false when there is none (§2.6).
bool attention_core(const std::vector<CandidateKernel>& kernels, const PerfLookup& lookup,
                    std::size_t& first, std::size_t& last);

// Dedup by kernel-name tuple (score: nn.Module prefix, parent_chain length); drops empties.
// `candidate_of(item)` gives the Candidate whose kernels and names decide.
template <class Item, class CandidateOf>
std::vector<Item> dedup_by_kernel_set(std::vector<Item> items, CandidateOf candidate_of) {
  std::map<std::vector<std::string_view>, std::size_t> slot;  // key -> index in kept
  std::vector<Item> kept;
  const auto score = [](const Candidate& c) {
    return std::make_pair(c.module_name.starts_with("nn.Module:"), c.parent_chain.size());
  };
  for (auto& item : items) {
    const Candidate& c = candidate_of(item);
    if (c.kernels.empty()) continue;
    std::vector<std::string_view> key;
    key.reserve(c.kernels.size());
    for (const auto& k : c.kernels) key.push_back(k.name);
    const auto it = slot.find(key);
    if (it == slot.end()) {
      slot.emplace(std::move(key), kept.size());
      kept.push_back(std::move(item));
    } else if (score(c) > score(candidate_of(kept[it->second]))) {
      kept[it->second] = std::move(item);
    }
  }
  return kept;
}

inline std::vector<Candidate> dedup_by_kernel_set(std::vector<Candidate> candidates) {
  return dedup_by_kernel_set(std::move(candidates),
                             [](const Candidate& c) -> const Candidate& { return c; });
}

void postprocess(std::vector<Candidate>& candidates, const PerfLookup& lookup);

}  // namespace loupe::core::prepare::fusion
