// TraceDiff's merge_trees: the two trees walked together from their top-level roots, child
// lists aligned (positionally, by Wagner-Fischer, then through wrapper collapsing), giving one
// tree whose nodes hold a trace-1 event, a trace-2 event, or both.
#pragma once

#include <cstddef>
#include <vector>

#include "alignment.hpp"
#include "diff_side.hpp"

namespace loupe::core::prepare::trace_diff {

struct MergedTree {
  std::vector<MergedNode> nodes;  // index = merged_id, numbered in pre-order
  std::vector<std::size_t> roots;
};

// Rewrites the sides' roots the way TraceLens does (DiffSide::top_level_root). Iterative: the
// depth of the trees does not use the stack. Alignment limits and counters go in `context`.
MergedTree merge_trees(DiffSide& side1, DiffSide& side2, AlignContext& context);

}  // namespace loupe::core::prepare::trace_diff
