// The run's time ledger (docs/findings-schema.md, "Time ledger"): every GPU op a finding claims is
// owned by exactly one ranked finding, so that the ranked savings add up. Findings are taken in
// rank order; a finding whose claimed time is mostly owned already is merged into that owner as a
// part, one that overlaps less keeps only its remaining GPU ops (its saving scaled to them); every
// saving is capped by the measured time of what its finding owns, and the ranked savings together
// by the run's time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "loupe/findings.hpp"

namespace loupe::core::ledger {

struct Saving {
  double low = 0.0;
  double mid = 0.0;
  double high = 0.0;
};

// One finding as the ledger sees it.
struct Claim {
  std::vector<std::int64_t> kernels;  // GPU ops it is about (trace/gpu_events.csv uids); any order
  Saving saving;                      // ms, as the finding states it
  findings::Evidence evidence = findings::Evidence::Heuristic;
};

enum class Disposition {
  Owner,    // ranked, owns every GPU op it claimed (and those of its parts)
  Trimmed,  // ranked, owns only the GPU ops no higher finding owned; saving scaled to them
  Merged,   // not ranked: most of its time belongs to a higher finding, which lists it as a part
};

struct Settlement {
  Disposition disposition = Disposition::Owner;
  std::size_t merged_into = 0;      // Merged: the finding it joined
  std::vector<std::size_t> parts;   // Owner/Trimmed: the findings merged into it
  std::vector<std::int64_t> owned;  // sorted uids
  std::int64_t claimed_ns = 0;      // measured time of what it claimed (known uids)
  std::int64_t owned_ns = 0;        // measured time of what it owns
  Saving saving;                    // after the ledger
  bool capped = false;              // cut to its owned time or to what the run's time had left
};

struct Ledger {
  std::vector<Settlement> findings;  // by input index
  std::vector<std::size_t> ranking;  // Owner and Trimmed findings, first = P1
  std::size_t unknown_kernels = 0;   // claimed uids the trace does not have (ignored)
  double budget_ms = 0.0;            // the run's time the savings must fit in
  Saving ranked_total;               // sum over the ranking
};

// The rank order: the size class (decade of the mid saving) first, so that a heuristic saving
// never ranks above a measured or modeled one of the same size class, then the evidence, then the
// mid saving. A finding without saving (all zero) ranks last.
bool ranks_before(const Saving& a, findings::Evidence ea, const Saving& b, findings::Evidence eb);

// `kernel_ns`: the measured duration of every GPU op of the run. `budget_ms`: the run's time
// (the GPU timeline's total); no cap when it is not positive.
Ledger settle(std::span<const Claim> claims,
              const std::unordered_map<std::int64_t, std::int64_t>& kernel_ns, double budget_ms);

const char* to_string(Disposition d);

}  // namespace loupe::core::ledger
