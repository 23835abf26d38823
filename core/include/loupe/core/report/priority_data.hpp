// priority_data.json: every category's ranked findings and impact estimates gathered into one
// document, the single source for the report's P-item order, its Top-Ops table and its plot
// (docs/report.md, "priority_data.json"). The layout and the numbers are TraceLens's
// generate_priority_data, so that the file is byte-identical in --compat tracelens.
#pragma once

#include "loupe/core/report/run_finding.hpp"

#include <string>
#include <utility>
#include <vector>

#include "loupe/json_value.hpp"
#include "loupe/layout.hpp"

namespace loupe::core {

// One <category>_metrics.json of category_data/, by file name.
struct MetricsFile {
  std::string file_name;  // e.g. "gemm_metrics.json"
  Json metrics;
};

inline constexpr int kMaxPlotRecommendations = 6;
inline constexpr const char* kPriorityDataFile = layout::kPriorityData;

// The priority document for a manifest and the run's metrics files (any order: they are taken
// in file-name order). A manifest or metrics file of the wrong shape gives the empty document
// TraceLens writes when its aggregation fails (all lists empty, baseline_ms 0).
Json build_priority_data(const Json& manifest, std::vector<MetricsFile> metrics_files,
                         int max_recommendations = kMaxPlotRecommendations);

// Default mode: each findings[] entry gets the run's one numbering from findings.json
// (`run_priority`, `finding_id`; a finding merged into another by the time ledger gets its
// owner's number and `part_of`, the owner's id; an entry findings.json does not rank gets nulls).
void number_priority_data(Json& priority_data, const RunFindings& run_findings);

// The file text: json.dump(indent=2) with ASCII escapes, no trailing newline.
std::string priority_data_text(const Json& priority_data);

}  // namespace loupe::core
