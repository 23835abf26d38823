// The recording window in the run report, default mode, from a raw trace (docs/report.md,
// "Recording window"): findings.json's `recording` block, the analysis.md section and the
// report.html section, all from the trace's recording window (trace/recording_window.json,
// core/include/loupe/core/trace/recording_window.hpp).
#pragma once

#include <string>

#include "loupe/core/trace/recording_window.hpp"
#include "loupe/json_value.hpp"

namespace loupe::core {

// The `recording` block: the window (ms and ns), the GPU work before and after it, and what
// that work means for the findings.
Json recording_report_block(const trace::RecordingWindow& window);
// The block from the document; null when the document is not a recording window.
Json recording_report_block(const Json& window_document);

// The "## Recording Window" section of analysis.md ("" for a null block).
std::string recording_report_markdown(const Json& block);
// The <section id="recording"> of report.html ("" for a null block).
std::string recording_report_html(const Json& block);

}  // namespace loupe::core
