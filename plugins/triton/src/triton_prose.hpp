// Findings prose for Triton kernels: the inductor kernel type (pointwise, reduction, persistent)
// and actions by bound type. Default mode: autotune the kernel's launch configurations
// (`torch.compile(mode="max-autotune")`, or `@triton.autotune` configs for a hand-written one).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "loupe/compute/card_facts.hpp"

namespace loupe::triton {

// By inductor prefix: triton_poi_ -> "pointwise", triton_red_ -> "reduction", triton_per_ ->
// "persistent", else "other" (case-insensitive).
std::string triton_kernel_type(std::string_view op_name);

class TritonProse : public compute::MeasuredProse {
 public:
  using MeasuredProse::MeasuredProse;
  std::string document_title(const std::string& category) const override;
  std::string noun() const override { return "Triton kernel"; }
  std::vector<std::string> overview(const Json& metrics) const override;
  std::string no_data_message() const override;
  std::string action(const compute::FindingContext& f) const override;
  std::string resolution(const compute::FindingContext& f) const override;
  std::vector<std::string> member_types(const compute::FindingContext& f) const override;
  std::vector<std::string> reasoning_extras(const compute::FindingContext& f) const override;
};

}  // namespace loupe::triton
