// Where the reader is, in bytes of JSON text, for the builder's warnings: the file stream
// (RapidJSON), a span of an element being re-parsed (RapidJSON), or the token the fast path is
// replaying.
#pragma once

#include <cstdint>

#include "chunk_stream.hpp"
#include "span_stream.hpp"

namespace loupe::core::trace {

struct ReadPosition {
  const ChunkStream* chunk = nullptr;
  const SpanStream* span = nullptr;
  std::uint64_t span_base = 0;
  std::uint64_t token = 0;

  std::uint64_t now() const {
    if (span != nullptr) return span_base + span->Tell();
    if (chunk != nullptr) return chunk->offset();
    return token;
  }
};

}  // namespace loupe::core::trace
