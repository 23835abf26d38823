#include "loupe/compute/numeric.hpp"

#include <algorithm>
#include <numeric>

namespace loupe::compute {

namespace {

double pairwise_sum(const double* a, size_t n) {
  if (n < 8) {
    double res = 0.0;
    for (size_t i = 0; i < n; ++i) res += a[i];
    return res;
  }
  if (n <= 128) {
    double r[8];
    for (size_t j = 0; j < 8; ++j) r[j] = a[j];
    size_t i = 8;
    for (; i < n - (n % 8); i += 8) {
      for (size_t j = 0; j < 8; ++j) r[j] += a[i + j];
    }
    double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) res += a[i];
    return res;
  }
  size_t n2 = n / 2;
  n2 -= n2 % 8;
  return pairwise_sum(a, n2) + pairwise_sum(a + n2, n - n2);
}

}  // namespace

double numpy_sum(const std::vector<double>& values) {
  return pairwise_sum(values.data(), values.size());
}

std::vector<size_t> python_sort_order(size_t count,
                                      const std::function<bool(size_t, size_t)>& key_less,
                                      bool reverse) {
  std::vector<size_t> a(count);
  std::iota(a.begin(), a.end(), size_t{0});
  if (reverse) std::reverse(a.begin(), a.end());
  if (count >= 64) {
    std::stable_sort(a.begin(), a.end(), key_less);
  } else if (count > 1) {
    // count_run
    size_t run = 2;
    if (key_less(a[1], a[0])) {
      while (run < count && key_less(a[run], a[run - 1])) ++run;
      std::reverse(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(run));
    } else {
      while (run < count && !key_less(a[run], a[run - 1])) ++run;
    }
    // binary insertion sort of the rest
    for (size_t start = run; start < count; ++start) {
      const size_t pivot = a[start];
      size_t l = 0;
      size_t r = start;
      while (l < r) {
        const size_t p = l + ((r - l) >> 1);
        if (key_less(pivot, a[p])) {
          r = p;
        } else {
          l = p + 1;
        }
      }
      for (size_t k = start; k > l; --k) a[k] = a[k - 1];
      a[l] = pivot;
    }
  }
  if (reverse) std::reverse(a.begin(), a.end());
  return a;
}

}  // namespace loupe::compute
