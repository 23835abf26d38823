// Findings prose for elementwise ops: member classes of the elementwise analyzer prompt
// (baseline, arithmetic, activation, cast, math, comparison), the baseline bandwidth
// expectation, and actions by bound type. Default mode: memory-bound chains are fused
// (`torch.compile` or a fused kernel) and very frequent same-shape calls are batched.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "loupe/compute/card_facts.hpp"

namespace loupe::elementwise {

// "Baseline", "Arithmetic", "Activation", "Cast / Convert", "Math", "Comparison / Mask", "Other".
std::string classify_elementwise(std::string_view op_name);

inline constexpr long long kManyCalls = 1000;

class ElementwiseProse : public compute::MeasuredProse {
 public:
  using MeasuredProse::MeasuredProse;
  std::string document_title(const std::string& category) const override;
  std::string noun() const override { return "elementwise op"; }
  std::string no_data_message() const override;
  std::string action(const compute::FindingContext& f) const override;
  std::string resolution(const compute::FindingContext& f) const override;
  std::vector<std::string> member_types(const compute::FindingContext& f) const override;
  std::vector<std::string> expectation_sentences(const compute::FindingContext& f) const override;
  std::vector<std::string> reasoning_extras(const compute::FindingContext& f) const override;
};

}  // namespace loupe::elementwise
