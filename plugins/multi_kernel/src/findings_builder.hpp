// Builds the structured findings document (spec §5) from the analysis result. The host's
// common renderer turns it into system_findings/multi_kernel_findings.md.
#pragma once

#include "analysis.hpp"
#include "card_selection.hpp"
#include "loupe/findings.hpp"

namespace loupe::multi_kernel {

findings::Document build_findings(const AnalysisResult& result, const std::vector<Card>& cards);

// The card title for a kind (used by Detected Patterns and the cards themselves).
std::string card_title(const Card& card, WorkloadMode mode);

}  // namespace loupe::multi_kernel
