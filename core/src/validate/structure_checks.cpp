#include "structure_checks.hpp"

#include <array>

#include "findings_patterns.hpp"
#include "python_text.hpp"
#include "section_layout.hpp"

namespace loupe::core::validate_detail {
namespace {

constexpr std::array<std::string_view, 3> kCardLabels = {"**Insight**", "**Action**", "**Impact**"};

std::string tier_mismatch_message(std::string_view tier,
                                  const std::vector<CandidateMatch>& candidates) {
  std::string found;
  for (const CandidateMatch& candidate : candidates) {
    if (lower(candidate.tier) == tier) {
      continue;
    }
    if (!found.empty()) {
      found += ", ";
    }
    found += "tier=";
    found += candidate.tier;
    found += " rank=";
    found += candidate.rank;
  }
  if (found.empty()) {
    return {};
  }
  return "reasoning-candidate tier mismatch: expected tier=" + std::string(tier) + ", found " +
         found;
}

}  // namespace

void check_structure(std::string_view text, std::string_view tier, bool relaxed,
                     std::vector<std::string>& errors) {
  const SectionLayout layout = locate_sections(text);
  if (!layout.has_recommendations()) {
    errors.emplace_back("Missing required section: " + std::string(kRecommendationsHeading));
  }
  if (!layout.has_detailed_analysis()) {
    errors.emplace_back("Missing required section: " + std::string(kDetailedAnalysisHeading));
  }
  if (layout.has_recommendations() && layout.has_detailed_analysis() &&
      layout.recommendations_pos > layout.detailed_analysis_pos) {
    errors.emplace_back("## Recommendations must appear before ## Detailed Analysis");
  }

  std::size_t card_count = 0;
  if (layout.has_recommendations()) {
    const std::string_view recommendations = layout.recommendations(text);
    card_count = count_p_headings(recommendations);
    if (!relaxed) {
      if (card_count == 0) {
        errors.emplace_back("No ### P<N>: items found under ## Recommendations");
      }
      for (const std::string_view label : kCardLabels) {
        if (recommendations.find(label) == std::string_view::npos) {
          errors.emplace_back("Missing label " + std::string(label) +
                              " in ## Recommendations (required for " + std::string(tier) +
                              " tier)");
        }
      }
    }
  }

  std::vector<CandidateMatch> candidates;
  if (layout.has_detailed_analysis()) {
    candidates = find_candidates(layout.detailed_analysis(text));
    if (!relaxed && candidates.empty()) {
      errors.emplace_back("No <!-- reasoning-candidate --> blocks in ## Detailed Analysis");
    }
  }

  if (!relaxed && card_count > 0 && !candidates.empty() && card_count != candidates.size()) {
    errors.emplace_back("P-item count (" + std::to_string(card_count) +
                        ") does not match reasoning-candidate count (" +
                        std::to_string(candidates.size()) + ")");
  }

  if (std::string mismatch = tier_mismatch_message(tier, candidates); !mismatch.empty()) {
    errors.push_back(std::move(mismatch));
  }
}

}  // namespace loupe::core::validate_detail
