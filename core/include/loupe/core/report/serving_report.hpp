// The serving-engine part of the run report, default mode only (docs/report.md, "Serving steps
// and GPU graphs"): from the trace's serving summary (trace/serving_summary.json, built by
// core/src/prepare/trace_views/serving_summary.cpp) the `serving` block of findings.json with
// its engine-level findings, the analysis.md section and the end-of-run lines.
#pragma once

#include <string>
#include <vector>

#include "loupe/json_value.hpp"

namespace loupe::core {

// The summary plus `findings`: one entry per rule that the measured numbers meet (idle steps,
// decode steps launched without a GPU graph, steps split around graph pieces, replayed kernels
// without a caller, graph launches without kernels), each with id, rule, title, insight, action
// and the numbers it rests on.
Json serving_report_block(const Json& summary);

// The "## Serving Steps and GPU Graphs" section of analysis.md.
std::string serving_report_markdown(const Json& block);

// At most a handful of lines for the end of `loupe analyze` (phases, graphs, findings).
std::vector<std::string> serving_summary_lines(const Json& block);

}  // namespace loupe::core
