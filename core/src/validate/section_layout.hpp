#pragma once
// Where the two orchestrator-consumed sections sit (spec §1.2, F-1 … F-3): first
// occurrence of each heading as a plain substring.
#include <cstddef>
#include <string_view>

namespace loupe::core::validate_detail {

inline constexpr std::string_view kRecommendationsHeading = "## Recommendations";
inline constexpr std::string_view kDetailedAnalysisHeading = "## Detailed Analysis";

struct SectionLayout {
  std::size_t recommendations_pos = std::string_view::npos;
  std::size_t detailed_analysis_pos = std::string_view::npos;

  bool has_recommendations() const { return recommendations_pos != std::string_view::npos; }
  bool has_detailed_analysis() const { return detailed_analysis_pos != std::string_view::npos; }

  // C[posR : posD] if posD > posR else C[posR:]. Requires has_recommendations().
  std::string_view recommendations(std::string_view text) const {
    const bool bounded = has_detailed_analysis() && detailed_analysis_pos > recommendations_pos;
    const std::size_t end = bounded ? detailed_analysis_pos : text.size();
    return text.substr(recommendations_pos, end - recommendations_pos);
  }

  // C[posD:]. Requires has_detailed_analysis().
  std::string_view detailed_analysis(std::string_view text) const {
    return text.substr(detailed_analysis_pos);
  }
};

inline SectionLayout locate_sections(std::string_view text) {
  return {text.find(kRecommendationsHeading), text.find(kDetailedAnalysisHeading)};
}

}  // namespace loupe::core::validate_detail
