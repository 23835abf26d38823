// pandas groupby kernels and numpy statistics behind the ops tables.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "loupe/core/prepare/pandas_numerics.hpp"

namespace pd = loupe::core::prepare::pandas;
namespace np = loupe::core::prepare::numpy;

TEST_CASE("groupby sum and mean use Kahan compensation, not a naive left-to-right sum",
          "[prepare][ops_tables]") {
  const std::vector<double> tenths(10, 0.1);
  double naive = 0.0;
  for (const double v : tenths) naive += v;
  REQUIRE(naive == 0.9999999999999999);
  CHECK(pd::group_sum(tenths, false).value == 1.0);
  CHECK_FALSE(pd::group_sum(tenths, false).is_int);
  CHECK(pd::group_mean(tenths) == 0.1);
  // Compensation recovers the small addends that a naive sum loses against a large one.
  const std::vector<double> mixed = {1e16, 1.0, 1.0, 1.0, 1.0};
  double naive_mixed = 0.0;
  for (const double v : mixed) naive_mixed += v;
  CHECK(naive_mixed == 1e16);
  CHECK(pd::group_sum(mixed, false).value == 1e16 + 4.0);
  // An int64 column sums exactly and stays an int.
  const auto ints = pd::group_sum(std::vector<double>{1087, 1091, 1089}, true);
  CHECK(ints.is_int);
  CHECK(ints.value == 3267);
}

TEST_CASE("groupby std is the sample std (ddof=1), NaN for one row; numpy std is population",
          "[prepare][ops_tables]") {
  const std::vector<double> v = {1, 2, 3, 4};
  CHECK(pd::group_std(v) == std::sqrt(5.0 / 3.0));
  CHECK(std::isnan(pd::group_std(std::vector<double>{42.0})));
  CHECK(pd::group_std(std::vector<double>{30, 30, 30}) == 0.0);
  CHECK(np::std_population(v) == std::sqrt(1.25));
  CHECK(np::std_population(std::vector<double>{480.0}) == 0.0);
  // Values from the reference pack (ut_gemm_gemm_01: durations of one kernel over 10 calls).
  const std::vector<double> gemm = {1084, 1085, 1084, 1082, 1085, 1086, 1084, 1085, 1083, 1085};
  CHECK(np::mean(gemm) == 1084.3);
  CHECK(np::median(gemm) == 1084.5);
}

TEST_CASE("median averages the two middle values", "[prepare][ops_tables]") {
  CHECK(pd::group_median(std::vector<double>{3, 1, 2}) == 2.0);
  CHECK(pd::group_median(std::vector<double>{4, 1, 3, 2}) == 2.5);
  CHECK(np::median(std::vector<double>{4, 1, 3, 2}) == 2.5);
  CHECK(pd::group_min(std::vector<double>{4, 1}, true).value == 1.0);
  CHECK(pd::group_max(std::vector<double>{4, 1}, false).value == 4.0);
}

TEST_CASE("Series.sum is numpy's pairwise sum; cumsum runs left to right",
          "[prepare][ops_tables]") {
  const std::vector<double> tenths(10, 0.1);
  CHECK(pd::series_sum(tenths, false).value == 1.0);
  const auto running = pd::series_cumsum(tenths);
  REQUIRE(running.size() == 10);
  CHECK(running.back() == 0.9999999999999999);
}

TEST_CASE("sort_values descending: quicksort order, ties of a short column stay in row order",
          "[prepare][ops_tables]") {
  const std::vector<double> keys = {5, 7, 5, 9, 0};
  CHECK(pd::sort_values_order(keys, false) == std::vector<std::size_t>{3, 1, 0, 2, 4});
  CHECK(pd::sort_values_order(keys, true) == std::vector<std::size_t>{4, 0, 2, 1, 3});
  // NaN keys go last in either direction.
  const std::vector<double> with_nan = {1, std::nan(""), 2};
  CHECK(pd::sort_values_order(with_nan, false) == std::vector<std::size_t>{2, 0, 1});
}

TEST_CASE("numpy argsort quicksort sorts long inputs (partition + insertion sort)",
          "[prepare][ops_tables]") {
  std::vector<double> values;
  for (int i = 0; i < 200; ++i) values.push_back(static_cast<double>((i * 37) % 101));
  const auto order = np::argsort_quicksort(values);
  REQUIRE(order.size() == values.size());
  for (std::size_t i = 1; i < order.size(); ++i) CHECK(values[order[i - 1]] <= values[order[i]]);
  // Unstable on ties once partitioning kicks in: 17+ equal keys are not kept in row order.
  const std::vector<double> equal(20, 1.0);
  const auto tie_order = np::argsort_quicksort(equal);
  CHECK(tie_order != std::vector<std::size_t>{0,  1,  2,  3,  4,  5,  6,  7,  8,  9,
                                              10, 11, 12, 13, 14, 15, 16, 17, 18, 19});
}

TEST_CASE("argsort partitions from 17 elements on, as numpy 1.24 does", "[prepare][ops_tables]") {
  // numpy's SMALL_QUICKSORT is 15: a range of 16 elements is insertion-sorted (ties keep their
  // order), one of 17 is partitioned first. Orders taken from numpy 1.24.2's argsort.
  CHECK(np::argsort_quicksort(std::vector<double>(16, 1.0)) ==
        std::vector<std::size_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15});
  CHECK(np::argsort_quicksort(std::vector<double>(17, 1.0)) ==
        std::vector<std::size_t>{0, 14, 13, 12, 11, 10, 9, 15, 8, 6, 5, 4, 3, 2, 1, 7, 16});
  // ops_summary of a 26-op trace with integer kernel times (pandas' sort_values, descending).
  const std::vector<double> sums = {23, 29, 21, 17, 23, 19, 17, 21, 25, 27, 27, 21, 46,
                                    29, 27, 19, 17, 25, 23, 65, 23, 25, 40, 25, 27, 63};
  CHECK(pd::sort_values_order(sums, false) ==
        std::vector<std::size_t>{19, 25, 12, 22, 1, 13, 14, 9, 10, 24, 17, 8, 21,
                                 23, 20, 18, 0,  4, 7,  11, 2, 15, 5,  6,  3, 16});
}

TEST_CASE("sort_values ties follow numpy's unstable quicksort (learned from b200_eager)",
          "[prepare][ops_tables]") {
  // ops_summary.csv of b200_eager: 18 groups in name order (groupby sorts keys), then
  // sort_values(total_direct_kernel_time_sum, ascending=False). `_C::rms_norm` (row 1) and
  // `aten::gather` (row 8) tie at 4.575927734375 µs; TraceLens lists aten::gather first, which
  // a stable sort would not (it keeps name order).
  const std::vector<double> sums = {
      452.06787109375,  4.575927734375,    133.08349609375, 97.312255859375, 162.686279296875,
      751.258544921875, 1186.10107421875,  114.0771484375,  4.575927734375,  3.904052734375,
      7.7119140625,     33.50390625,       2.080078125,     5.087890625,     2119.54736328125,
      1.98388671875,    6009.149169921875, 485.81982421875};
  const auto order = pd::sort_values_order(sums, false);
  const std::vector<std::size_t> expected = {16, 14, 6,  5,  17, 0, 4, 2,  7,
                                             3,  11, 10, 13, 8,  1, 9, 12, 15};
  CHECK(order == expected);
}
