// Findings prose for attention: the implementation (flash / paged / unfused), shape and expected
// efficiency band, and the action from the analyzer's decision rules: unfused -> the flash path
// of the framework in the call stack; head-dim padding -> a supported head dim; long sequence at
// low efficiency -> select the fastest flash backend; short sequences -> batch / GPU graphs;
// paged -> KV-cache block size, chunked prefill or decode batching.
#pragma once

#include <string>
#include <vector>

#include "loupe/compute/findings_builder.hpp"

namespace loupe::sdpa {

class SdpaProse : public compute::FindingsProse {
 public:
  std::string document_title(const std::string& category) const override;
  std::string noun() const override { return "attention operation"; }
  std::vector<std::string> overview(const Json& metrics) const override;
  std::string no_data_message() const override;
  std::string insight(const compute::FindingContext& f) const override;
  std::string action(const compute::FindingContext& f) const override;
  std::string resolution(const compute::FindingContext& f) const override;
  std::vector<std::string> expectation_sentences(const compute::FindingContext& f) const override;
  std::vector<std::string> identification_extras(const compute::FindingContext& f) const override;
  std::vector<std::string> reasoning_extras(const compute::FindingContext& f) const override;
};

}  // namespace loupe::sdpa
