// Streaming load of a trace file (.json or .json.gz) into a TraceModel: RapidJSON's SAX
// reader over the chunked byte source, straight into the model (no DOM of the file).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "loupe/core/trace/trace_model.hpp"

namespace loupe::core::trace {

struct LoadOptions {
  bool read_ahead = true;              // inflate / read on a second thread while parsing
  std::size_t chunk_bytes = 1u << 20;  // JSON text read (or inflated) per step
  // Threads that parse the traceEvents array (docs/performance.md, "Parallel parse"): 0 = one
  // per core plus one (at most 9; sequential on one core), 1 = sequential. The model, warnings
  // and errors do not depend on it.
  unsigned parse_threads = 0;
  std::size_t parse_block_bytes = 4u << 20;  // JSON text per parallel block
  // Called about every 64 MiB of JSON text with (JSON bytes so far, file bytes so far).
  std::function<void(std::uint64_t, std::uint64_t)> progress;
};

// A problem that stopped the load: where (byte offset in the JSON text) and what.
struct LoadError {
  std::uint64_t offset = 0;
  std::string message;
  // The file is not a trace Loupe reads (input_format.hpp): the message names what it is,
  // no byte offset applies.
  bool unsupported_format = false;
  std::string describe() const {
    return unsupported_format ? message : "byte " + std::to_string(offset) + ": " + message;
  }
};

struct LoadResult {
  TraceModel model;                // complete, or every event read before the error
  std::optional<LoadError> error;  // set when the load stopped early
  std::uint64_t json_bytes = 0;    // JSON text bytes read (decompressed)
  std::uint64_t input_bytes = 0;   // file bytes read
  bool gzip = false;
  std::size_t parallel_blocks = 0;  // blocks of traceEvents parsed by workers (0: sequential)
};

// Throws std::runtime_error only when the file cannot be opened; every problem of the content
// is reported in LoadResult::error (with the events before it kept) or as counted warnings. A
// file that is not JSON text or is another profiler's output (input_format.hpp) is refused
// before the parse, with LoadError::unsupported_format set.
LoadResult load_trace(const std::filesystem::path& path, const LoadOptions& options = {});
// Same for JSON (or gzip) bytes held in memory.
LoadResult load_trace_bytes(std::string bytes, const LoadOptions& options = {});

}  // namespace loupe::core::trace
