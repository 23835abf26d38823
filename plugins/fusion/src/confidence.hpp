// Confidence of an estimate (spec §3.9): a module-name signal and a kernel-composition signal.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "predicates.hpp"

namespace loupe::fusion {

struct ConfidenceOptions {
  // Default mode (Q13): hints must match whole name tokens ("rope" no longer matches
  // "property"), and "high" needs the two signals to name the same pattern.
  bool token_hints = false;
  bool require_agreement = false;
};

struct Confidence {
  std::string level;                       // "high" | "medium" | "low"
  std::optional<std::string> name_signal;  // attention | norm | mlp | rope | siglu
  std::optional<std::string> comp_signal;  // attention | norm | mlp | rope | elementwise_chain
};

// The first hint group found in base_name or module_name.
std::optional<std::string> name_signal(std::string_view base_name, std::string_view module_name,
                                       bool token_hints);
// The first composition rule matching the kernels.
std::optional<std::string> composition_signal(const std::vector<EnrichedKernel>& kernels);

Confidence classify_confidence(std::string_view base_name, std::string_view module_name,
                               const std::vector<EnrichedKernel>& kernels,
                               const ConfidenceOptions& options);

// True when `hint` occurs in `name` starting and ending on token boundaries (non-alphanumeric
// characters, lower->upper case changes, acronym ends as in "RMSNorm", letter/digit changes).
bool hint_matches_token(std::string_view name, std::string_view hint);

}  // namespace loupe::fusion
