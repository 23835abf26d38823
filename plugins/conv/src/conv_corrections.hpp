// The default-mode conv findings of docs/deviations.md (conv "C1"-"C4"), on
// top of the compute library's metrics:
//  C1 layout conversion is its own finding when layout-transform kernels exceed 10% of the
//     convolution kernel time (channels-last action, saving = their measured time), and the
//     tuning findings' savings then exclude those kernels so no time is claimed twice;
//  C2 one finding per problem (bound type x efficiency bucket), listing the libraries it spans;
//  C3 the operations below the gates, each with its time;
//  C4 a saving in ms on every finding (metrics estimated_savings_ms[_high], quoted by the cards).
#pragma once

#include "loupe/compute/category_inputs.hpp"
#include "loupe/findings.hpp"
#include "loupe/json_value.hpp"

namespace loupe::conv {

inline constexpr double kLayoutFindingPercent = 10.0;

// C2: the compute library's finding groups (compute::build_category_findings) with the library
// left out of the key; each member keeps its library, the finding lists them ("libraries", and
// "library" joined with " + ").
Json findings_across_libraries(const Json& impact_estimates);

// Rewrites category_findings (C2, C4, and C1's exclusion) and adds layout_conversion_finding
// (C1) and below_gates (C3). Standalone OK metrics only; anything else is left as it is.
void apply_corrections(Json& metrics, const compute::CategoryInputs& inputs);

// Adds what the compute findings builder does not know to its document: the saving on each
// card, the layout-conversion card and detail, the below-the-gates section.
void decorate_findings(findings::Document& doc, const Json& metrics);

}  // namespace loupe::conv
