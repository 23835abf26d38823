// Kernel-name rules for the attention kernels (corrected-mode library detection,
// docs/deviations.md A2): TraceLens's rules leave most flash kernels "Unknown".
#pragma once

#include <vector>

#include "loupe/compute/op_fields.hpp"

namespace loupe::sdpa {

const std::vector<compute::LibraryRule>& sdpa_library_rules();

}  // namespace loupe::sdpa
