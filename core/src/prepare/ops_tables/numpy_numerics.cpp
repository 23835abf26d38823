// numpy 1.24 float statistics (np.sum / np.mean / np.median / np.std over float64 arrays) and
// np.argsort(kind="quicksort") (npysort/quicksort.cpp: aquicksort_ with aheapsort_ fallback).
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "loupe/compute/numeric.hpp"
#include "loupe/core/prepare/pandas_numerics.hpp"

namespace loupe::core::prepare::numpy {

namespace {

// numpy's float `less`: NaN sorts after every number.
bool nan_last_less(double a, double b) { return a < b || (b != b && a == a); }

// npysort_common.h: partitions of more than SMALL_QUICKSORT + 1 elements are split, the rest
// insertion-sorted.
constexpr std::ptrdiff_t kSmallQuicksort = 15;

// aheapsort_: heap sort of index range [first, first + n) by v.
void arg_heapsort(const std::vector<double>& v, std::size_t* first, std::ptrdiff_t n) {
  std::size_t* a = first - 1;  // 1-based heap indexing
  std::size_t tmp = 0;
  std::ptrdiff_t i = 0, j = 0, l = 0;
  for (l = n >> 1; l > 0; --l) {
    tmp = a[l];
    for (i = l, j = l << 1; j <= n;) {
      if (j < n && nan_last_less(v[a[j]], v[a[j + 1]])) j += 1;
      if (nan_last_less(v[tmp], v[a[j]])) {
        a[i] = a[j];
        i = j;
        j += j;
      } else {
        break;
      }
    }
    a[i] = tmp;
  }
  for (; n > 1;) {
    tmp = a[n];
    a[n] = a[1];
    n -= 1;
    for (i = 1, j = 2; j <= n;) {
      if (j < n && nan_last_less(v[a[j]], v[a[j + 1]])) j++;
      if (nan_last_less(v[tmp], v[a[j]])) {
        a[i] = a[j];
        i = j;
        j += j;
      } else {
        break;
      }
    }
    a[i] = tmp;
  }
}

}  // namespace

double sum(std::span<const double> values) {
  return compute::numpy_sum(std::vector<double>(values.begin(), values.end()));
}

double mean(std::span<const double> values) {
  return sum(values) / static_cast<double>(values.size());
}

double median(std::span<const double> values) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end(), nan_last_less);
  if (std::isnan(sorted.back())) return std::numeric_limits<double>::quiet_NaN();
  const std::size_t n = sorted.size();
  if (n % 2 == 1) return sorted[n / 2];
  return (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
}

double std_population(std::span<const double> values) {
  const double n = static_cast<double>(values.size());
  const double average = sum(values) / n;
  std::vector<double> squares;
  squares.reserve(values.size());
  for (const double v : values) {
    const double d = v - average;
    squares.push_back(d * d);
  }
  return std::sqrt(compute::numpy_sum(squares) / n);
}

std::vector<std::size_t> argsort_quicksort(std::span<const double> values) {
  const std::vector<double> v(values.begin(), values.end());
  const auto num = static_cast<std::ptrdiff_t>(v.size());
  std::vector<std::size_t> tosort(v.size());
  std::iota(tosort.begin(), tosort.end(), std::size_t{0});
  if (num < 2) return tosort;

  std::size_t* pl = tosort.data();
  std::size_t* pr = pl + num - 1;
  std::vector<std::size_t*> stack;
  std::vector<int> depth;
  int cdepth = static_cast<int>(std::bit_width(static_cast<std::size_t>(num)) - 1) * 2;  // msb * 2

  for (;;) {
    if (cdepth < 0) {
      arg_heapsort(v, pl, pr - pl + 1);
    } else {
      while ((pr - pl) > kSmallQuicksort) {
        std::size_t* pm = pl + ((pr - pl) >> 1);
        if (nan_last_less(v[*pm], v[*pl])) std::swap(*pm, *pl);
        if (nan_last_less(v[*pr], v[*pm])) std::swap(*pr, *pm);
        if (nan_last_less(v[*pm], v[*pl])) std::swap(*pm, *pl);
        const double vp = v[*pm];
        std::size_t* pi = pl;
        std::size_t* pj = pr - 1;
        std::swap(*pm, *pj);
        for (;;) {
          do {
            ++pi;
          } while (nan_last_less(v[*pi], vp));
          do {
            --pj;
          } while (nan_last_less(vp, v[*pj]));
          if (pi >= pj) break;
          std::swap(*pi, *pj);
        }
        std::size_t* pk = pr - 1;
        std::swap(*pi, *pk);
        // Push the larger partition, keep sorting the smaller one.
        if (pi - pl < pr - pi) {
          stack.push_back(pi + 1);
          stack.push_back(pr);
          pr = pi - 1;
        } else {
          stack.push_back(pl);
          stack.push_back(pi - 1);
          pl = pi + 1;
        }
        depth.push_back(--cdepth);
      }
      // Insertion sort of the small partition.
      for (std::size_t* pi = pl + 1; pi <= pr; ++pi) {
        const std::size_t vi = *pi;
        const double vp = v[vi];
        std::size_t* pj = pi;
        std::size_t* pk = pi - 1;
        while (pj > pl && nan_last_less(vp, v[*pk])) *pj-- = *pk--;
        *pj = vi;
      }
    }
    if (stack.empty()) break;
    pr = stack.back();
    stack.pop_back();
    pl = stack.back();
    stack.pop_back();
    cdepth = depth.back();
    depth.pop_back();
  }
  return tosort;
}

}  // namespace loupe::core::prepare::numpy
