// Findings prose for reductions: member classes of the reduce analyzer prompt (softmax, sum,
// mean, max, min), and actions by bound type. Default mode: a softmax inside an attention
// module is replaced by a fused attention kernel, other memory-bound reductions are fused with
// their producer (`torch.compile`).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "loupe/compute/card_facts.hpp"

namespace loupe::reduce {

bool is_softmax(std::string_view op_name);

// "Softmax", "Sum", "Mean", "Max", "Min" or "Other".
std::string classify_reduce(std::string_view op_name);

class ReduceProse : public compute::MeasuredProse {
 public:
  using MeasuredProse::MeasuredProse;
  std::string document_title(const std::string& category) const override;
  std::string noun() const override { return "reduction"; }
  std::vector<std::string> overview(const Json& metrics) const override;
  std::string no_data_message() const override;
  std::string action(const compute::FindingContext& f) const override;
  std::string resolution(const compute::FindingContext& f) const override;
  std::vector<std::string> member_types(const compute::FindingContext& f) const override;
  std::vector<std::string> identification_extras(const compute::FindingContext& f) const override;
  std::vector<std::string> reasoning_extras(const compute::FindingContext& f) const override;

 private:
  // A softmax member whose module chain names an attention module.
  static bool softmax_in_attention(const compute::FindingContext& f);
};

}  // namespace loupe::reduce
