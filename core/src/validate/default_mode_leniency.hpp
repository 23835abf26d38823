#pragma once
// The ONLY places where ValidationMode::Default differs from TraceLens: three legitimate
// forms that TraceLens rejects (false positives, spec ). Everything else is
// identical in both modes. Documented in docs/deviations.md.
#include <string_view>

namespace loupe::core::validate_detail {

// Rule (a), Q-15: the kernel-fusion agent's prescribed "no opportunities" file
//   # Kernel Fusion Analysis Summary (Experimental)
//   <blank>
//   No kernel fusion opportunities detected.
// for tier "fusion". `text` is newline-normalized; leading/trailing whitespace is ignored.
// Such a file passes outright.
bool is_kernel_fusion_no_opportunities_file(std::string_view text, std::string_view tier);

// Rule (b), Q-15: an honest empty findings file for tier "system" or "fusion": both sections
// present in order, no `### …P<N>:` heading, no reasoning-candidate comment and no impact
// marker anywhere in the file, and none of the card labels **Insight** / **Action** /
// **Impact** under ## Recommendations (so template-like cards without numbers still fail).
// Such a file is validated like a compute file in relaxed-empty mode (F-4 … F-7 and the
// p_item requirement skipped); every other check still runs.
bool is_honest_empty_findings(std::string_view text, std::string_view tier);

// Rule (c), Q-3: an Args or Kernel Path cell that is exactly U+2014 (em dash) is an absent
// value, as the sub-agent spec prescribes, and is not checked against the metrics JSON.
bool is_absent_value_em_dash(std::string_view cell);

}  // namespace loupe::core::validate_detail
