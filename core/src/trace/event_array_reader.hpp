// The fast path of the trace reader (spec §5.2): reads the elements of a `traceEvents` array
// from large contiguous windows of the JSON text. Each element is tokenized in place by the
// strict ValueTokenizer and replayed into the TraceModelBuilder; an element the tokenizer does
// not take (a syntax error, NaN, an exponent, a truncated file) is re-parsed by RapidJSON over
// the same bytes — located with the boundary splitter — so behaviour, warnings and error
// messages are exactly those of the RapidJSON reader.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "loupe/core/trace/byte_source.hpp"
#include "loupe/core/trace/json_reader.hpp"
#include "read_position.hpp"
#include "trace_model_builder.hpp"
#include "value_tokenizer.hpp"

namespace loupe::core::trace {

// Where in the array the reader starts: just after the `[`, just after a `,` (an element must
// follow), or just after an element (a `,` or the `]` must follow).
enum class ArrayEntry : std::uint8_t { kArrayStart, kAfterComma, kAfterElement };

class EventArrayReader {
 public:
  EventArrayReader(ByteSource& source, TraceModelBuilder& builder, ReadPosition& position)
      : source_(source), builder_(builder), position_(position) {}

  // `initial`: the bytes just after the array's `[`, at JSON offset `base`; more come from the
  // source. Reads every element and the closing `]` (the builder sees the elements, not the
  // brackets). On success the unread bytes are rest() at rest_offset().
  // `entry` says where in the array `initial` starts (the parallel reader resumes mid-array).
  // With `pause_after`, it pauses at the first element that starts at or after that offset
  // (after its `,`); paused() then says so and rest() holds the unread bytes from that element.
  std::optional<LoadError> run(std::string_view initial, std::uint64_t base,
                               ArrayEntry entry = ArrayEntry::kArrayStart,
                               std::uint64_t pause_after = UINT64_MAX);
  bool paused() const { return paused_; }
  std::string_view rest() const { return {buf_.data() + pos_, size_ - pos_}; }
  std::uint64_t rest_offset() const { return base_ + pos_; }
  // Whether the source is exhausted (rest() is then all that is left).
  bool at_eof() const { return eof_; }

 private:
  bool refill();   // keeps [pos_, size_), appends the next chunk; false at the end
  bool skip_ws();  // false at the end of the input
  std::optional<LoadError> read_element();
  std::optional<LoadError> reparse_element();
  LoadError error_at(std::size_t index, int code, bool handler_stopped) const;

  ByteSource& source_;
  TraceModelBuilder& builder_;
  ReadPosition& position_;
  ValueTokenizer tokenizer_;
  std::vector<char> buf_;
  std::size_t pos_ = 0;
  std::size_t size_ = 0;
  std::uint64_t base_ = 0;  // JSON offset of buf_[0]
  bool eof_ = false;
  bool paused_ = false;
};

}  // namespace loupe::core::trace
