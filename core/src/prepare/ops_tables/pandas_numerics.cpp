// pandas 1.5.3 groupby kernels (groupby.pyx: group_sum / group_mean with Kahan compensation,
// group_median_float64, group_var with Welford's update, group_min / group_max), Series.sum,
// Series.cumsum and single-key sort_values.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "loupe/compute/numeric.hpp"
#include "loupe/core/prepare/pandas_numerics.hpp"

namespace loupe::core::prepare::pandas {

namespace {

double exact_sum(std::span<const double> values) {
  double total = 0.0;
  for (const double v : values) total += v;
  return total;
}

double kahan_sum(std::span<const double> values) {
  double sum = 0.0;
  double compensation = 0.0;
  for (const double value : values) {
    const double y = value - compensation;
    const double t = sum + y;
    compensation = (t - sum) - y;
    sum = t;
  }
  return sum;
}

}  // namespace

PandasNumber group_sum(std::span<const double> values, bool is_int) {
  if (is_int) return {exact_sum(values), true};
  return {kahan_sum(values), false};
}

double group_mean(std::span<const double> values) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  return kahan_sum(values) / static_cast<double>(values.size());
}

double group_median(std::span<const double> values) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();
  if (n % 2 == 1) return sorted[n / 2];
  return (sorted[n / 2] + sorted[n / 2 - 1]) / 2;
}

double group_std(std::span<const double> values, int ddof) {
  double count = 0.0;
  double mean = 0.0;
  double ssqdm = 0.0;
  for (const double value : values) {
    count += 1.0;
    const double old_mean = mean;
    mean += (value - old_mean) / count;
    ssqdm += (value - mean) * (value - old_mean);
  }
  if (count <= static_cast<double>(ddof)) return std::numeric_limits<double>::quiet_NaN();
  return std::sqrt(ssqdm / (count - static_cast<double>(ddof)));
}

PandasNumber group_min(std::span<const double> values, bool is_int) {
  if (values.empty()) return {std::numeric_limits<double>::quiet_NaN(), false};
  return {*std::min_element(values.begin(), values.end()), is_int};
}

PandasNumber group_max(std::span<const double> values, bool is_int) {
  if (values.empty()) return {std::numeric_limits<double>::quiet_NaN(), false};
  return {*std::max_element(values.begin(), values.end()), is_int};
}

PandasNumber series_sum(std::span<const double> values, bool is_int) {
  if (is_int) return {exact_sum(values), true};
  return {compute::numpy_sum(std::vector<double>(values.begin(), values.end())), false};
}

std::vector<double> series_cumsum(std::span<const double> values) {
  std::vector<double> out;
  out.reserve(values.size());
  double running = 0.0;
  for (const double v : values) {
    running = out.empty() ? v : running + v;
    out.push_back(running);
  }
  return out;
}

std::vector<std::size_t> sort_values_order(std::span<const double> keys, bool ascending) {
  // pandas nargsort: argsort the non-NaN keys (reversed first when descending, so that the
  // final reversal keeps ties in row order for a stable algorithm), NaN rows appended last.
  std::vector<std::size_t> non_nan_rows;
  std::vector<std::size_t> nan_rows;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    (std::isnan(keys[i]) ? nan_rows : non_nan_rows).push_back(i);
  }
  if (!ascending) std::reverse(non_nan_rows.begin(), non_nan_rows.end());
  std::vector<double> sort_keys;
  sort_keys.reserve(non_nan_rows.size());
  for (const std::size_t row : non_nan_rows) sort_keys.push_back(keys[row]);
  const std::vector<std::size_t> order = numpy::argsort_quicksort(sort_keys);
  std::vector<std::size_t> indexer;
  indexer.reserve(keys.size());
  for (const std::size_t k : order) indexer.push_back(non_nan_rows[k]);
  if (!ascending) std::reverse(indexer.begin(), indexer.end());
  indexer.insert(indexer.end(), nan_rows.begin(), nan_rows.end());
  return indexer;
}

}  // namespace loupe::core::prepare::pandas
