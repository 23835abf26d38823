// What the host accepts from emit_metrics / emit_findings (docs/plugin-abi.md, "Limits"): exactly
// one JSON value in valid UTF-8, no NUL byte, no trailing bytes, finite numbers only, nesting at
// most kMaxJsonDepth deep, and at most the size limit of its kind. The one exception: in
// --compat tracelens runs a document may hold NaN and Infinity, because TraceLens's own metrics
// do (Python's json module writes them) and the findings repeat those numbers.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace loupe::core {

enum class EmittedDocument { Metrics, Findings };

inline constexpr std::size_t kMaxMetricsBytes = std::size_t{64} << 20;
inline constexpr std::size_t kMaxFindingsBytes = std::size_t{8} << 20;

// "" when acceptable, else why not ("the metrics document: contains a NUL byte at offset 2").
std::string check_emitted_document(std::string_view text, EmittedDocument kind,
                                   bool allow_non_finite = false);

}  // namespace loupe::core
