// Per-operation SDPA classification (operations[].classification): attention implementation,
// perf-model flag, the paged-attention kernel breakdown and the workload profile.
//  - Corrected mode: the kernel breakdown as in sdpa_kernel_breakdown.hpp (docs/deviations.md A1).
#pragma once

#include <cstddef>

#include "loupe/compute/category_inputs.hpp"
#include "loupe/json_value.hpp"

namespace loupe::sdpa {

Json sdpa_classification(const compute::CategoryInputs& inputs, size_t row, bool tracelens_compat);

// The has_perf_model cell as TraceLens reads it per row: bool(value), so an empty cell (NaN) is
// true.
bool has_perf_model(const compute::CategoryInputs& inputs, size_t row);

}  // namespace loupe::sdpa
