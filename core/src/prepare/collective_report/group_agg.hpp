// DataFrame.groupby(keys).agg(...) over a DictRows table, as pandas 1.5 computes it: keys
// sorted (numbers before strings in mixed columns), rows with a missing key dropped, each
// group's rows in table order; aggregations from the project's pandas numerics.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "dict_rows.hpp"

namespace loupe::core::multirank {

// Groups of row indices (taken from `rows`, in that order) in sorted key order.
std::vector<std::vector<std::size_t>> group_by(const DictRows& table,
                                               const std::vector<std::string>& keys,
                                               const std::vector<std::size_t>& rows);

enum class Agg { kMean, kMedian, kMin, kMax, kSum, kStd, kFirst, kCount, kSize, kSeriesSumMs };

// One aggregate of `column` over a group (kSeriesSumMs: Series.sum() / 1000, the lambda
// TraceLens uses for total latency).
Json aggregate(const DictRows& table, const std::string& column,
               const std::vector<std::size_t>& group, Agg agg);

// Agg from TraceLens's metric name ("mean", "median", "min", "max", "sum", "std").
Agg agg_from_name(const std::string& name);

}  // namespace loupe::core::multirank
