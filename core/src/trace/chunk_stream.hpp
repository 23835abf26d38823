// A RapidJSON input stream over a ByteSource's chunks, with 64-bit byte offsets.
#pragma once

#include <rapidjson/rapidjson.h>

#include <cstdint>
#include <string_view>

#include "loupe/core/trace/byte_source.hpp"

namespace loupe::core::trace {

class ChunkStream {
 public:
  using Ch = char;
  // `base`: the byte offset of the source's first byte in the JSON text.
  explicit ChunkStream(ByteSource& source, std::uint64_t base = 0) : source_(source), base_(base) {}

  Ch Peek() {
    if (RAPIDJSON_LIKELY(cur_ != end_)) return *cur_;
    return refill() ? *cur_ : '\0';
  }
  Ch Take() {
    if (RAPIDJSON_UNLIKELY(cur_ == end_) && !refill()) return '\0';
    return *cur_++;
  }
  std::size_t Tell() const {
    return static_cast<std::size_t>(base_ + static_cast<std::uint64_t>(cur_ - begin_));
  }
  std::uint64_t offset() const { return base_ + static_cast<std::uint64_t>(cur_ - begin_); }
  bool at_end() { return Peek() == '\0' && cur_ == end_; }
  // The unread bytes of the current chunk (valid until the source's next chunk is fetched).
  std::string_view remaining() const {
    return cur_ == nullptr ? std::string_view()
                           : std::string_view(cur_, static_cast<std::size_t>(end_ - cur_));
  }

  // Write side, unused (RapidJSON requires the names).
  Ch* PutBegin() {
    RAPIDJSON_ASSERT(false);
    return nullptr;
  }
  void Put(Ch) { RAPIDJSON_ASSERT(false); }
  void Flush() { RAPIDJSON_ASSERT(false); }
  std::size_t PutEnd(Ch*) {
    RAPIDJSON_ASSERT(false);
    return 0;
  }

 private:
  bool refill() {
    if (eof_) return false;
    base_ += static_cast<std::uint64_t>(end_ - begin_);
    const auto chunk = source_.next_chunk();
    if (chunk.empty()) {
      eof_ = true;
      begin_ = cur_ = end_ = nullptr;
      return false;
    }
    begin_ = cur_ = chunk.data();
    end_ = chunk.data() + chunk.size();
    return true;
  }

  ByteSource& source_;
  const char* begin_ = nullptr;
  const char* cur_ = nullptr;
  const char* end_ = nullptr;
  std::uint64_t base_ = 0;
  bool eof_ = false;
};

}  // namespace loupe::core::trace
