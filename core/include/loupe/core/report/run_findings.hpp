// findings.json: one versioned document for the whole run (docs/findings-schema.md, "Run
// findings"): the run's facts and every finding of every category with a stable id, its
// priority, what it names, the time it measured and the saving it estimates in ms and in %.
#pragma once

#include <string>

#include "loupe/core/model/model.hpp"
#include "loupe/core/run/analysis_runner.hpp"
#include "loupe/core/whatif/run_graph.hpp"
#include "loupe/json_value.hpp"
#include "loupe/layout.hpp"

namespace loupe::core {

inline constexpr const char* kRunFindingsSchema = "loupe.run_findings/2";
inline constexpr const char* kRunFindingsFile = layout::kRunFindings;

// The document for a finished run: categories in execution order, findings ranked by their
// mid saving (highest first; findings without a quantified saving after them).
// Every card goes through the run's time ledger (time_ledger.hpp); in default mode the compute
// cards with no model behind them are listed under `coverage` instead of ranked.
// With `run_graph` (a raw trace, default mode), each finding that owns GPU ops is also capped by
// how much shorter the run would be if those ops took their target time (docs/what-if.md).
Json build_run_findings(const Model& model, const AnalyzeReport& report,
                        Compat compat = Compat::None, const whatif::RunGraph* run_graph = nullptr);

// findings.json's text, as the run writes it (the rank-set driver gets a rank's in memory).
std::string run_findings_text(const Json& run_findings);

// A finding's id: the category and what identifies the finding independently of its numbers
// (the ops it names, or its title without digits), hashed, so that the same finding of the same
// workload keeps its id from one run to the next.
std::string finding_id(const std::string& category, const std::string& identity);

}  // namespace loupe::core
