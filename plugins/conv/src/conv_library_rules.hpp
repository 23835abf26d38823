// Kernel-name rules for the DNN-library convolution kernels (corrected-mode library detection).
#pragma once

#include <vector>

#include "loupe/compute/op_fields.hpp"

namespace loupe::conv {

const std::vector<compute::LibraryRule>& conv_library_rules();

}  // namespace loupe::conv
