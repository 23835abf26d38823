// Findings prose for uncategorized operations: what each op is (from its name), where it sits in
// the model, the measured facts and the concrete action for its kind and bound type.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "loupe/compute/findings_builder.hpp"

namespace loupe::generic {

// Who replayed a kernel from a GPU graph, from the trace's serving summary
// (trace/serving_summary.json, docs/report.md "Serving steps and GPU graphs").
struct GraphReplayCaller {
  std::string launch;  // hipGraphLaunch / cudaGraphLaunch
  std::string caller;  // the op or Python frame that called it ("" when the trace has none)
  std::string step;    // the step label it ran in ("" outside any step)
  long long launches = 0;
  long long kernels_per_launch = 0;
};
// By full kernel name.
using GraphReplayCallers = std::map<std::string, GraphReplayCaller, std::less<>>;

class GenericProse : public compute::FindingsProse {
 public:
  GenericProse() = default;
  // Default mode: short titles for "<launcher>-><kernel> (Synthetic Op)" rows and the replay's
  // caller in the identification. --compat tracelens keeps the full op name.
  GenericProse(bool compat, GraphReplayCallers callers)
      : compat_(compat), callers_(std::move(callers)) {}
  std::string title(const compute::FindingContext& f) const override;
  std::string document_title(const std::string& category) const override;
  std::vector<std::string> overview(const Json& metrics) const override;
  std::string no_data_message() const override;
  std::string insight(const compute::FindingContext& f) const override;
  std::string action(const compute::FindingContext& f) const override;
  std::string reasoning(const compute::FindingContext& f) const override;
  std::vector<std::string> identification_extras(const compute::FindingContext& f) const override;

 private:
  bool compat_ = true;
  GraphReplayCallers callers_;
};

// "<launcher>-><kernel> (Synthetic Op)" -> {launcher, kernel}; nullopt for other names.
std::optional<std::pair<std::string, std::string>> split_synthetic(std::string_view op_name);

}  // namespace loupe::generic
