// Findings prose for normalizations: member variants of the norm analyzer prompt (BatchNorm,
// LayerNorm, GroupNorm, InstanceNorm, RMSNorm) and actions by bound type. Default mode: a fused
// normalization kernel (apex FusedLayerNorm / FusedRMSNorm, `torch.compile`), channels-last for
// BatchNorm.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "loupe/compute/card_facts.hpp"

namespace loupe::norm {

// "BatchNorm", "LayerNorm", "GroupNorm", "InstanceNorm", "RMSNorm" or "Other".
std::string classify_norm(std::string_view op_name);

class NormProse : public compute::MeasuredProse {
 public:
  using MeasuredProse::MeasuredProse;
  std::string document_title(const std::string& category) const override;
  std::string noun() const override { return "normalization"; }
  std::string no_data_message() const override;
  std::string action(const compute::FindingContext& f) const override;
  std::string resolution(const compute::FindingContext& f) const override;
  std::vector<std::string> member_types(const compute::FindingContext& f) const override;
  std::vector<std::string> reasoning_extras(const compute::FindingContext& f) const override;
};

}  // namespace loupe::norm
