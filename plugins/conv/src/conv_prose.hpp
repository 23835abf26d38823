// Findings prose for convolutions: member classification, expected efficiency by conv type,
// action guidance by bound type and the transpose-overhead bands.
#pragma once

#include <string>
#include <vector>

#include "loupe/compute/findings_builder.hpp"

namespace loupe::conv {

// high (> 20), moderate (>= 10), acceptable.
std::string transpose_band(double percent);

class ConvProse : public compute::FindingsProse {
 public:
  std::string document_title(const std::string& category) const override;
  std::string noun() const override { return "convolution"; }
  std::vector<std::string> overview(const Json& metrics) const override;
  std::string no_data_message() const override;
  std::string action(const compute::FindingContext& f) const override;
  std::string resolution(const compute::FindingContext& f) const override;
  std::vector<std::string> member_types(const compute::FindingContext& f) const override;
  std::vector<std::string> expectation_sentences(const compute::FindingContext& f) const override;
  std::vector<std::string> identification_extras(const compute::FindingContext& f) const override;
  std::vector<std::string> reasoning_extras(const compute::FindingContext& f) const override;

 private:
  static double transpose_overhead(const compute::FindingContext& f);
};

}  // namespace loupe::conv
