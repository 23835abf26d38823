// The measured facts of a compute finding in one sentence, for default-mode cards: the lead
// operation, its kernel and library, the members' measured kernel time and E2E share, and the
// efficiency against the roofline with the bound type (or why there is none).
#pragma once

#include <string>

#include "loupe/compute/card_facts.hpp"
#include "loupe/compute/findings_builder.hpp"

namespace loupe::compute {

// The first member's operation name.
std::string lead_operation_name(const FindingContext& f);

// "5.20% of the 708 TFLOPS roofline, compute-bound" / "... TB/s roofline, memory-bound" /
// "efficiency against the roofline cannot be computed (no performance model), so its bound type
// is unknown".
std::string efficiency_phrase(const Json* operation);

// "`<op>` (<what>) runs `<kernel>` from <library>; N signature(s) take T ms of measured kernel
// time (P% of E2E GPU time); <efficiency_phrase>." `what` is left out when empty.
std::string measured_facts(const FindingContext& f, const std::string& what);

}  // namespace loupe::compute
