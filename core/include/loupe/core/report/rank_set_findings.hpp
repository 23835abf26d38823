// findings.json for a multi-rank run (docs/findings-schema.md, "Rank-set findings"): one ranked
// list for the whole set: the cross-rank cards (stragglers, slow collectives) and every per-rank
// finding merged across the ranks that show it, by its stable id.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "loupe/findings.hpp"
#include "loupe/json_value.hpp"

namespace loupe::core {

inline constexpr const char* kRankSetFindingsSchema = "loupe.rank_set_findings/2";

// One cross-rank card and what identifies it apart from its numbers.
struct CrossRankCard {
  std::string identity;
  findings::Recommendation card;
};

// One rank's findings.json (loupe.run_findings/2), or null when the rank wrote none.
struct RankFindings {
  int rank = 0;
  Json document;
};

struct RankSetFindingsInput {
  int world_size = 0;
  std::vector<RankFindings> ranks;  // in rank order
  std::vector<CrossRankCard> cross_rank;
  std::optional<double> median_rank_gpu_ms;  // what the cross-rank percentages are shares of
  std::string cross_rank_findings_file;      // relative to the output directory; "" when none
};

// The document. Per-rank findings with the same id are one entry: the ranks that show it, and
// its saving as the median over those ranks (with the smallest and largest), with the title,
// insight and action of the rank whose saving is that median. Entries are ranked by mid saving
// in ms (highest first; entries without a quantified saving last).
Json build_rank_set_findings(const RankSetFindingsInput& input);

}  // namespace loupe::core
