// Host<->device copies among the elementwise ops (an `aten::copy_` whose only GPU work is a
// `Memcpy HtoD`/`DtoH` or ROCm `CopyHostToDevice`/`CopyDeviceToHost`): their time is set by the
// host link (PCIe), not by HBM, so the default mode leaves them out of the roofline findings;
// the multi_kernel analyzer judges them against the link's bandwidth (docs/deviations.md, M9).
#pragma once

#include <string_view>

namespace loupe::elementwise {

// Whether a kernel name is a copy between host and device memory.
bool is_host_device_copy(std::string_view kernel_name);

// Whether every kernel named in an ops-table `trunc_kernel_details` cell (a Python list of
// dicts with a 'name' key) is a host<->device copy; false for an empty or unreadable cell.
bool only_host_device_copies(std::string_view kernel_details);

}  // namespace loupe::elementwise
