#include "numpy_sum.hpp"

#include <array>
#include <cstddef>

namespace loupe::core::prepare {

double numpy_pairwise_sum(std::span<const double> values) {
  constexpr std::size_t kBlock = 128;
  const std::size_t n = values.size();
  if (n < 8) {
    double sum = 0.0;  // numpy starts from -0.0 only for empty reductions; 0.0 + x == x
    for (const double v : values) sum += v;
    return n == 0 ? 0.0 : sum;
  }
  if (n <= kBlock) {
    std::array<double, 8> r{};
    for (std::size_t k = 0; k < 8; ++k) r[k] = values[k];
    std::size_t i = 8;
    for (; i + 8 <= n; i += 8) {
      for (std::size_t k = 0; k < 8; ++k) r[k] += values[i + k];
    }
    double sum = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) sum += values[i];
    return sum;
  }
  std::size_t half = n / 2;
  half -= half % 8;
  return numpy_pairwise_sum(values.first(half)) + numpy_pairwise_sum(values.subspan(half));
}

}  // namespace loupe::core::prepare
