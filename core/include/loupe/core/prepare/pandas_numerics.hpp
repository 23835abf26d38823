// The numerics behind TraceLens's summary tables, reproduced bit for bit:
// * pandas 1.5.3 groupby aggregations (cython kernels, values in row order): sum and mean with
//   Kahan compensated summation, median (mean of the two middle values), sample std by
//   Welford's online update (ddof = 1, NaN when count <= ddof), min, max;
// * pandas Series.sum (numpy pairwise summation) and Series.cumsum (left to right);
// * numpy's float statistics used in kernel summaries: np.sum / np.mean (pairwise),
//   np.median, np.std (population, ddof = 0);
// * DataFrame.sort_values on one float key (numpy's introsort argsort, so ties land where
//   pandas puts them).
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "loupe/core/prepare/gpu_intervals.hpp"  // PandasNumber

namespace loupe::core::prepare {

// A numeric DataFrame column: int64 when every value is a Python int, else float64.
struct NumericColumn {
  std::vector<double> values;
  bool is_int = false;
};

namespace pandas {

// groupby(...).agg(...) over one group's values, in row order. `is_int` is the column dtype:
// int64 columns keep exact integer sum / min / max; mean, median and std are floats.
PandasNumber group_sum(std::span<const double> values, bool is_int);
double group_mean(std::span<const double> values);
double group_median(std::span<const double> values);
double group_std(std::span<const double> values, int ddof = 1);
PandasNumber group_min(std::span<const double> values, bool is_int);
PandasNumber group_max(std::span<const double> values, bool is_int);

// Series.sum() (numpy pairwise summation over the values in row order; exact for ints).
PandasNumber series_sum(std::span<const double> values, bool is_int);
// Series.cumsum() on a float column.
std::vector<double> series_cumsum(std::span<const double> values);

// Row order after DataFrame.sort_values(by=<this key>, ascending=...) with the default
// quicksort (pandas nargsort over numpy's argsort; NaN keys last).
std::vector<std::size_t> sort_values_order(std::span<const double> keys, bool ascending);

}  // namespace pandas

namespace numpy {

double sum(std::span<const double> values);   // np.sum of a float64 array (pairwise)
double mean(std::span<const double> values);  // np.mean (pairwise sum / n)
double median(std::span<const double> values);
double std_population(std::span<const double> values);  // np.std, ddof = 0
// np.argsort(values, kind="quicksort") as numpy 1.24 implements it (introsort: median of three,
// insertion sort below 17 elements, heapsort past the depth limit); NaN sorts last.
std::vector<std::size_t> argsort_quicksort(std::span<const double> values);

}  // namespace numpy

}  // namespace loupe::core::prepare
