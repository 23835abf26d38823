// The steps in the run report, default mode, from a raw trace (docs/report.md, "Steps"):
// findings.json's `steps` block, the analysis.md section and the report.html section, all from
// the trace's step table (trace/steps.json, core/include/loupe/core/trace/step_table.hpp).
#pragma once

#include <string>

#include "loupe/core/trace/step_table.hpp"
#include "loupe/json_value.hpp"

namespace loupe::core {

// findings.json's table holds at most this many steps (the rest are counted, not listed).
inline constexpr std::size_t kStepsInFindings = 500;
// analysis.md and report.html list at most this many (warm-up and slow steps first).
inline constexpr std::size_t kStepsInReport = 20;

// The `steps` block: the source, per-step rows in ms, the aggregates over the steady steps
// (warm-up excluded), the variation, what could not be used; a trace without steps says so.
Json steps_report_block(const trace::StepTable& table);
// The block from the document; null when the document is not a step table.
Json steps_report_block_from_document(const Json& steps_document);

// The "## Steps" section of analysis.md ("" for a null block).
std::string steps_report_markdown(const Json& block);
// The <section id="steps"> of report.html ("" for a null block).
std::string steps_report_html(const Json& block);

}  // namespace loupe::core
