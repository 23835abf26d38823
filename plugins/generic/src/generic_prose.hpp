// Findings prose for uncategorized operations: what each op is (from its name), where it sits in
// the model, the measured facts and the concrete action for its kind and bound type.
#pragma once

#include <string>
#include <vector>

#include "loupe/compute/findings_builder.hpp"

namespace loupe::generic {

class GenericProse : public compute::FindingsProse {
 public:
  std::string document_title(const std::string& category) const override;
  std::vector<std::string> overview(const Json& metrics) const override;
  std::string no_data_message() const override;
  std::string insight(const compute::FindingContext& f) const override;
  std::string action(const compute::FindingContext& f) const override;
  std::string reasoning(const compute::FindingContext& f) const override;
  std::vector<std::string> identification_extras(const compute::FindingContext& f) const override;
};

}  // namespace loupe::generic
