// A RapidJSON input stream over bytes in memory, with an explicit end ('\0' past it) and
// offsets relative to its start. Used to re-parse one element of traceEvents with RapidJSON.
#pragma once

#include <rapidjson/rapidjson.h>
#include <rapidjson/reader.h>

#include <cstddef>

namespace loupe::core::trace {

// How RapidJSON reads trace text, wherever it does (the whole file, or one element again):
// numbers kept as text (exact nanoseconds), NaN / Infinity accepted (warned about), and the
// parse stops after the value.
inline constexpr unsigned kTraceParseFlags = rapidjson::kParseNumbersAsStringsFlag |
                                             rapidjson::kParseNanAndInfFlag |
                                             rapidjson::kParseStopWhenDoneFlag;

class SpanStream {
 public:
  using Ch = char;
  SpanStream(const char* begin, const char* end) : begin_(begin), cur_(begin), end_(end) {}

  Ch Peek() const { return cur_ != end_ ? *cur_ : '\0'; }
  Ch Take() { return cur_ != end_ ? *cur_++ : '\0'; }
  std::size_t Tell() const { return static_cast<std::size_t>(cur_ - begin_); }

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
  const char* begin_;
  const char* cur_;
  const char* end_;
};

}  // namespace loupe::core::trace
