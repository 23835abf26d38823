// `loupe analyze --max-memory MB`: the peak memory a trace analysis will need, estimated from
// the trace file's size before anything is read or written (docs/performance.md, "Memory
// estimate and --max-memory").
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace loupe::cli {

struct TraceSizeEstimate {
  std::uint64_t json_bytes = 0;  // the JSON text's size (plain: the file; gzip: see below)
  bool gzip = false;
  // gzip only: the trailer's ISIZE is the size mod 2^32 (RFC 1952) of the last member, so
  // json_bytes is the smallest ISIZE + k * 2^32 not below the compressed size (less the
  // container's overhead): a lower bound.
  bool lower_bound = false;
};

// The JSON size of a .json or .json.gz trace, from its size or its gzip trailer; nullopt
// (with `why`) when the file cannot be read.
std::optional<TraceSizeEstimate> estimate_trace_size(const std::filesystem::path& path,
                                                     std::string& why);

// Estimated peak RSS in bytes of `loupe analyze --trace` on `json_bytes` of JSON: the measured
// bytes per JSON byte of the whole run plus a fixed base.
std::uint64_t estimate_analyze_peak_bytes(std::uint64_t json_bytes);

}  // namespace loupe::cli
