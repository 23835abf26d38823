// Standalone post-processing with unified_perf_summary.csv (spec fusion.md §2.6): attention
// narrowing, kernel-set dedup, data split enrichment.
#pragma once

#include <vector>

#include "candidate.hpp"
#include "perf_lookup.hpp"

namespace loupe::core::prepare::fusion {

// The softmax core [qk..pv] of a kernel list, or false when there is none (§2.6).
bool attention_core(const std::vector<CandidateKernel>& kernels, const PerfLookup& lookup,
                    std::size_t& first, std::size_t& last);

// Dedup by kernel-name tuple (score: nn.Module prefix, parent_chain length); drops empties.
std::vector<Candidate> dedup_by_kernel_set(std::vector<Candidate> candidates);

void postprocess(std::vector<Candidate>& candidates, const PerfLookup& lookup);

}  // namespace loupe::core::prepare::fusion
