// The conv category_specific block: transpose count, time and overhead, and the peaks.
//  - TraceLens mode: rows whose op *name* contains "transpose" (Q1: always 0 on real traces).
//  - Corrected mode (I-1, I-12): layout-transform kernels actually launched, and the peak of
//    the time-dominant Compute Spec.
#pragma once

#include <string_view>

#include "loupe/compute/category_inputs.hpp"
#include "loupe/json_value.hpp"

namespace loupe::conv {

// True for kernels that only change the memory layout (NCHW <-> NHWC transposes).
bool is_layout_transform_kernel(std::string_view kernel_name);

Json conv_category_specific_tracelens(const compute::CategoryInputs& inputs);
Json conv_category_specific_corrected(const compute::CategoryInputs& inputs);

}  // namespace loupe::conv
