// Step-to-step variation as a finding (docs/report.md, "Steps"): the host's step table
// (trace/steps.json) names the steady steps that exceed the median step by more than the noise
// (max(3 robust standard deviations, 5 % of the median)); their time beyond the median is
// measured, and the card's saving is that time (low and mid: the kSavingLow / kSavingMid shares
// of it, as for the idle mechanisms).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "loupe/findings.hpp"
#include "loupe/json_value.hpp"

namespace loupe::cpu_idle {

inline constexpr const char* kStepsView = "trace/steps.json";

struct SlowStep {
  std::string name;
  std::int64_t step_ns = 0;
};

struct StepVariation {
  std::string source;  // profiler_step | serving_label
  std::int64_t steady_steps = 0;
  std::int64_t median_ns = 0;
  std::int64_t spread_ns = 0;
  std::int64_t threshold_ns = 0;
  std::int64_t excess_ns = 0;
  std::vector<SlowStep> slow;
};

// The variation of the document when it is significant (some slow step); nullopt otherwise,
// and for a document that is not a step table.
std::optional<StepVariation> read_step_variation(const Json& steps_document);

// The card and its detail; `span_ns` is what the impact percentages are shares of (the GPU span
// of the idle breakdown, as for the other cards).
std::pair<findings::Recommendation, findings::Detail> step_variation_card(const StepVariation& v,
                                                                          std::int64_t span_ns);

}  // namespace loupe::cpu_idle
