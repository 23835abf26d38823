// Aligning two child lists: Wagner-Fischer edit distance on comparison names with TraceLens's
// backtrack (a name match is always taken first), then the re-matching of repeated names by
// the similarity of their GPU-path subtrees.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "diff_side.hpp"

namespace loupe::core::prepare::trace_diff {

struct EditOp {
  enum class Kind : std::uint8_t { kMatch, kDelete, kInsert };
  Kind kind = Kind::kMatch;
  std::size_t i = 0;  // index in the first list (kMatch, kDelete)
  std::size_t j = 0;  // index in the second list (kMatch, kInsert)
};
using EditOps = std::vector<EditOp>;

// Memory for the backtrack bits of one Wagner-Fischer run (one bit per DP cell). Larger
// tables are backtracked block by block: the forward pass keeps one row of values per block
// and each block's bits are recomputed from it when the backtrack enters the block.
inline constexpr std::size_t kDefaultWagnerFischerBitBudget = std::size_t{1} << 30;  // 128 MiB

// The edit script between two name lists, in list order. `bit_budget` changes the memory used,
// never the result.
EditOps wagner_fischer(const std::vector<std::string>& names1,
                       const std::vector<std::string>& names2,
                       std::size_t bit_budget = kDefaultWagnerFischerBitBudget);
// The same on names already turned into ids (equal names, equal ids).
EditOps wagner_fischer_ids(const std::vector<std::uint32_t>& ids1,
                           const std::vector<std::uint32_t>& ids2,
                           std::size_t bit_budget = kDefaultWagnerFischerBitBudget);

// Limits and counters shared by every alignment of one comparison.
struct AlignContext {
  // A repeated name with more (i, j) candidate pairs than this keeps its Wagner-Fischer
  // matches instead of being re-matched (TraceDiffOptions::max_disambiguation_pairs).
  std::size_t max_disambiguation_pairs = kDefaultMaxDisambiguationPairs;
  std::size_t skipped_disambiguations = 0;  // names whose re-matching was skipped
};

// TraceDiff's aligned_wf: Wagner-Fischer on the nodes' comparison names, then repeated names
// re-matched by comparing the names of their GPU-path descendants level by level (4 levels).
EditOps align_children(const std::vector<trace::Uid>& items1, const std::vector<trace::Uid>& items2,
                       const DiffSide& side1, const DiffSide& side2, bool strip_details,
                       AlignContext& context);

// Every item paired with the one at the same position (equal-length lists without dispatch
// calls are aligned this way, without looking at names).
EditOps positional_matches(std::size_t count);

}  // namespace loupe::core::prepare::trace_diff
