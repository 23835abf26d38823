// Counted problems found while loading a trace or building its tree (§5.8). Nothing here
// stops a load; fatal problems are reported as a LoadError instead.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace loupe::core::trace {

enum class Warning : std::uint8_t {
  kEventWithoutPhase,     // element of traceEvents without `ph`
  kNonObjectEvent,        // element of traceEvents that is not an object
  kNonFiniteNumber,       // NaN / Infinity as ts or dur (field treated as absent)
  kIntegerOutOfRange,     // an id beyond int64 (field treated as absent)
  kPrecisionFallback,     // ts/dur with > 3 decimals or an exponent
  kInvalidUtf8,           // a string that is not valid UTF-8 (replaced by U+FFFD)
  kBadFieldType,          // e.g. a string `ts`, a float pid (field treated as absent)
  kNegativeDuration,      // dur < 0 (treated as absent)
  kHostEventWithoutTime,  // a host-category event without ts/dur (left out of the tree)
  kFlowWithoutId,         // ac2g flow without `id` (ignored)
  kTrailingGzipData,      // bytes after the last gzip member that are not a gzip member
  kUnknownPhase,          // `ph` other than X, i, s, f, M
  kCount
};
const char* warning_description(Warning w);

struct TraceDiagnostics {
  std::uint64_t warnings[static_cast<int>(Warning::kCount)] = {};
  // The first few warnings with their byte offset in the JSON text, for messages.
  std::vector<std::string> samples;
  std::vector<Warning> sample_kinds;  // the kind of each sample (same order)

  void warn(Warning w, std::uint64_t offset, const std::string& what);
  std::uint64_t count(Warning w) const { return warnings[static_cast<int>(w)]; }
  std::uint64_t total() const;
};

}  // namespace loupe::core::trace
