#include "default_mode_leniency.hpp"

#include <array>

#include "findings_patterns.hpp"
#include "marker_patterns.hpp"
#include "python_text.hpp"
#include "section_layout.hpp"

namespace loupe::core::validate_detail {

bool is_kernel_fusion_no_opportunities_file(std::string_view text, std::string_view tier) {
  constexpr std::string_view kFallback =
      "# Kernel Fusion Analysis Summary (Experimental)\n"
      "\n"
      "No kernel fusion opportunities detected.";
  return tier == "fusion" && strip(text) == kFallback;
}

bool is_honest_empty_findings(std::string_view text, std::string_view tier) {
  if (tier != "system" && tier != "fusion") {
    return false;
  }
  const SectionLayout layout = locate_sections(text);
  if (!layout.has_recommendations() || !layout.has_detailed_analysis() ||
      layout.recommendations_pos > layout.detailed_analysis_pos) {
    return false;
  }
  constexpr std::array<std::string_view, 3> kCardLabels = {"**Insight**", "**Action**",
                                                           "**Impact**"};
  const std::string_view recommendations = layout.recommendations(text);
  for (const std::string_view label : kCardLabels) {
    if (recommendations.find(label) != std::string_view::npos) {
      return false;
    }
  }
  return count_p_headings(text) == 0 && find_candidates(text).empty() &&
         find_begin_markers(text).empty() && count_end_markers(text) == 0;
}

bool is_absent_value_em_dash(std::string_view cell) { return cell == "\u2014"; }

}  // namespace loupe::core::validate_detail
