// STEP 4b entry points (spec docs/contracts/fusion.md §2.8): run the extraction steps, sort, write
// the JSON.
#include "loupe/core/prepare/fusion_candidates.hpp"

#include <exception>

#include "candidate.hpp"
#include "perf_lookup.hpp"
#include "postprocess.hpp"

namespace loupe::core::prepare {

FusionCandidatesResult fusion_candidates_standalone(const trace::TraceModel& model,
                                                    const trace::EventTree& tree,
                                                    const CsvTable* unified_perf_summary) {
  return fusion_candidates_standalone(model, tree, unified_perf_summary,
                                      unified::collect_unified_perf_events(model, tree));
}

FusionCandidatesResult fusion_candidates_standalone(
    const trace::TraceModel& model, const trace::EventTree& tree,
    const CsvTable* unified_perf_summary, std::span<const unified::CollectedEvent> collected) {
  const fusion::DurationReader dur{model};
  FusionCandidatesResult result;
  try {
    fusion::ModuleWalk walk = fusion::module_walk(model, tree, dur);
    result.unique_modules = walk.entries.size();
    auto candidates = fusion::filter_candidates(std::move(walk),
                                                fusion::sibling_sequences(model, collected, dur));
    if (unified_perf_summary != nullptr) {
      const auto lookup = fusion::PerfLookup::build(*unified_perf_summary);
      fusion::postprocess(candidates, lookup);
    }
    fusion::sort_by_total_time(candidates);
    Json array = Json::array();
    for (const auto& c : candidates) array.push_back(fusion::standalone_candidate_json(c));
    result.candidate_count = candidates.size();
    result.json = dump_python_json(array);
  } catch (const std::exception& ex) {
    result = fusion::extraction_failed(ex);
  }
  return result;
}

}  // namespace loupe::core::prepare
