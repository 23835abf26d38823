// The bytes of a trace's JSON text, in chunks: a plain file, or gzip (detected by its magic
// bytes, not the suffix; concatenated members accepted) inflated through ISA-L, or zlib without it
// (gzip_inflater.hpp). A UTF-8 byte-order mark in front of the text (plain or inflated) is skipped.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

namespace loupe::core::trace {

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // The next chunk of JSON text; empty at the end (or after an error). The view stays valid
  // until the next call.
  virtual std::string_view next_chunk() = 0;
  // A fatal problem of the container (truncated or corrupt gzip); empty when none.
  virtual std::string error() const = 0;
  // Trailing bytes after the last gzip member that were ignored.
  virtual std::uint64_t ignored_trailing_bytes() const { return 0; }
  virtual bool is_gzip() const = 0;
  // Bytes consumed from the underlying file so far (compressed bytes for gzip).
  virtual std::uint64_t input_bytes_consumed() const = 0;
};

// Opens `path`; throws std::runtime_error("cannot open ...") if it cannot be read.
std::unique_ptr<ByteSource> open_byte_source(const std::filesystem::path& path,
                                             std::size_t chunk_bytes = 4u << 20);
// The same over bytes held in memory (tests, small inputs).
std::unique_ptr<ByteSource> memory_byte_source(std::string bytes,
                                               std::size_t chunk_bytes = 4u << 20);
// Runs `inner` on a producer thread, `depth` chunks ahead of the consumer (overlaps
// inflate with parsing on a second core).
std::unique_ptr<ByteSource> read_ahead(std::unique_ptr<ByteSource> inner, std::size_t depth = 3);

}  // namespace loupe::core::trace
