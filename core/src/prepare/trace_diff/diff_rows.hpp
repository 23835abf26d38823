// TraceDiff's generate_diff_stats: a walk of the merged tree that stops at the first combined
// node with unmatched GPU-path children (or a matched pair of kernels) and reports every kernel
// below it, on both sides, with that node as lowest common ancestor; one-sided nodes reached
// directly report their kernels under their combined parent.
#pragma once

#include <vector>

#include "diff_side.hpp"
#include "tree_merge.hpp"

namespace loupe::core::prepare::trace_diff {

std::vector<DiffStatsRow> diff_stats_rows(const MergedTree& merged, const DiffSide& side1,
                                          const DiffSide& side2);

}  // namespace loupe::core::prepare::trace_diff
