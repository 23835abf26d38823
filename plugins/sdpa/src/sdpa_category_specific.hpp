// The SDPA category_specific block: flash / paged counts, perf-model count, the peaks, the
// average paged-attention kernel breakdown and the category's token profile.
#pragma once

#include "loupe/compute/category_inputs.hpp"
#include "loupe/json_value.hpp"

namespace loupe::sdpa {

Json sdpa_category_specific(const compute::CategoryInputs& inputs, bool tracelens_compat);

}  // namespace loupe::sdpa
