// The ERROR outputs: TraceLens's exact layout when the data file is missing (spec §4.9), the
// same layout with a precise message for any other bad input, and an ERROR findings document.
#pragma once

#include <string>

#include "analysis.hpp"

namespace loupe::multi_kernel {

inline constexpr const char* kTraceLensMissingDataError =
    "multi_kernel_data.json not found - run orchestrator_prepare.py first";

// {"status": "ERROR", "error": message, three unflagged assessments, "patterns_detected": []}
Json error_metrics(const std::string& message);
findings::Document error_findings(const std::string& message, Scope scope);
AnalysisOutput error_output(const std::string& message, Scope scope);

}  // namespace loupe::multi_kernel
