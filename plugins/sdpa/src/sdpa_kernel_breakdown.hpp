// The sub-kernels of a paged-attention operation and their share of its time, read from the
// kernel_details_summary cell.
//  - TraceLens mode: the cell with every ')' removed (so names lose theirs), each kernel's
//    mean_duration_us, shares of the sum of the means.
//  - Corrected mode (docs/deviations.md A1): names intact; shares of total_duration_us, so a
//    kernel launched more often weighs more.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loupe/json_value.hpp"

namespace loupe::sdpa {

enum class KernelRole { ReshapeCache, PagedAttention, FwdKernel, Other };

// "reshape_cache", "paged_attention", "fwd_kernel", "other".
const char* kernel_role_name(KernelRole role);
KernelRole kernel_role(std::string_view kernel_name);

struct BreakdownKernel {
  std::string name;
  double time_us = 0.0;  // the mean (TraceLens) or the total (corrected) duration
  KernelRole role = KernelRole::Other;
  std::optional<double> percent;  // absent when the times sum to 0
};

struct KernelBreakdown {
  std::vector<BreakdownKernel> kernels;
  bool has_reshape_cache = false;
  bool has_paged_attention = false;
  bool has_fwd_kernel = false;
};

KernelBreakdown parse_kernel_breakdown(std::string_view kernel_details, bool tracelens_compat);

// {"has_paged_attention_kernel", "has_fwd_kernel", "has_reshape_cache", "kernels": [...]};
// each kernel {"name", "mean_us" (TraceLens) or "total_us" (corrected), "kernel_type", "percent"}.
Json breakdown_json(const KernelBreakdown& breakdown, bool tracelens_compat);

}  // namespace loupe::sdpa
