// Device memory in the run report, default mode, from a raw trace (docs/report.md, "Memory"):
// findings.json's `memory` block, the analysis.md section and the report.html section with its
// plot, from the allocator's memory timeline (trace/memory.json,
// core/include/loupe/core/trace/memory_timeline.hpp).
#pragma once

#include <cstdint>
#include <string>

#include "loupe/json_value.hpp"

namespace loupe::core {

// A GPU's peak reserved memory at or above this share of its memory is a finding.
inline constexpr double kNearCapacityFraction = 0.9;

// The `memory` block from the document; `platform_memory_gib` (0: unknown) is the device memory
// used when the trace does not state it. Null when the document is not a memory timeline.
Json memory_report_block(const Json& memory_document, double platform_memory_gib);

// The "## Memory" section of analysis.md ("" for a null block).
std::string memory_report_markdown(const Json& block);
// The <section id="memory"> of report.html with its SVG plot ("" for a null block).
std::string memory_report_html(const Json& block);

}  // namespace loupe::core
