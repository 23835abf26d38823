// Numeric behaviour that parity with TraceLens depends on: numpy's pairwise float sum (pandas
// Series.sum), and Python's list.sort (timsort with a less-than predicate, which matters when
// NaN keys make comparisons inconsistent).
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

namespace loupe::compute {

// numpy.add.reduce over a contiguous float64 array (pairwise summation, 8-way unrolled blocks).
double numpy_sum(const std::vector<double>& values);

// Python's sorted(items, key=..., reverse=reverse) expressed with a key less-than predicate on
// indices; returns the permutation. Exact for lists shorter than 64 (binary insertion sort of
// one run, as CPython does); longer lists use a stable merge sort.
std::vector<size_t> python_sort_order(size_t count,
                                      const std::function<bool(size_t, size_t)>& key_less,
                                      bool reverse);

}  // namespace loupe::compute
