// numpy's float64 summation (pairwise with an 8-way unrolled base case), which pandas'
// Series.sum() uses: summing the same doubles in another order changes the last bits.
#pragma once

#include <span>

namespace loupe::core::prepare {

double numpy_pairwise_sum(std::span<const double> values);

}  // namespace loupe::core::prepare
