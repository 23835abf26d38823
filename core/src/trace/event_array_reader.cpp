#include "event_array_reader.hpp"

#include <rapidjson/reader.h>

#include <cstring>

#include "parse_error_text.hpp"
#include "span_stream.hpp"
#include "value_extent.hpp"

namespace loupe::core::trace {

bool EventArrayReader::refill() {
  if (eof_) return false;
  const std::string_view chunk = source_.next_chunk();
  if (chunk.empty()) {
    eof_ = true;
    return false;
  }
  const std::size_t keep = size_ - pos_;
  if (pos_ > 0 && keep > 0) std::memmove(buf_.data(), buf_.data() + pos_, keep);
  base_ += pos_;
  pos_ = 0;
  size_ = keep;
  if (buf_.size() < keep + chunk.size()) buf_.resize(keep + chunk.size());
  std::memcpy(buf_.data() + keep, chunk.data(), chunk.size());
  size_ += chunk.size();
  return true;
}

bool EventArrayReader::skip_ws() {
  while (true) {
    while (pos_ < size_ && is_json_whitespace(buf_[pos_])) ++pos_;
    if (pos_ < size_) return true;
    if (!refill()) return false;
  }
}

LoadError EventArrayReader::error_at(std::size_t index, int code, bool handler_stopped) const {
  LoadError err;
  err.offset = base_ + index;
  if (handler_stopped) {
    err.message = builder_.fatal_message();
  } else {
    const bool at_end = index >= size_ && eof_;
    const char at = index < size_ ? buf_[index] : '\0';
    err.message = describe_parse_error(static_cast<rapidjson::ParseErrorCode>(code), at, at_end);
  }
  return err;
}

std::optional<LoadError> EventArrayReader::reparse_element() {
  // Make sure the window holds the whole element (or all that is left of the input), so that
  // RapidJSON stops inside it exactly where it would have stopped on the file stream.
  while (find_value_end(std::string_view(buf_.data(), size_), pos_) == kValueIncomplete &&
         refill()) {
  }
  SpanStream span(buf_.data() + pos_, buf_.data() + size_);
  position_.span = &span;
  position_.span_base = base_ + pos_;
  rapidjson::Reader reader;
  const rapidjson::ParseResult ok = reader.Parse<kTraceParseFlags>(span, builder_);
  position_.span = nullptr;
  if (!ok) {
    return error_at(pos_ + ok.Offset(), ok.Code(), ok.Code() == rapidjson::kParseErrorTermination);
  }
  pos_ += span.Tell();
  return std::nullopt;
}

std::optional<LoadError> EventArrayReader::read_element() {
  while (true) {
    const char* begin = buf_.data() + pos_;
    const TokenizeStatus st = tokenizer_.tokenize(begin, buf_.data() + size_);
    if (st == TokenizeStatus::kOk) {
      const char* origin = buf_.data();
      const std::uint64_t base = base_;
      ReadPosition& position = position_;
      const bool ok = replay_tokens(tokenizer_.tokens(), builder_, [&](const char* after) {
        position.token = base + static_cast<std::uint64_t>(after - origin);
      });
      if (!ok) {
        return error_at(static_cast<std::size_t>(position_.token - base_),
                        rapidjson::kParseErrorTermination, true);
      }
      pos_ = static_cast<std::size_t>(tokenizer_.value_end() - buf_.data());
      return std::nullopt;
    }
    if (st == TokenizeStatus::kIncomplete && refill()) continue;
    return reparse_element();
  }
}

std::optional<LoadError> EventArrayReader::run(std::string_view initial, std::uint64_t base,
                                               ArrayEntry entry, std::uint64_t pause_after) {
  paused_ = false;
  base_ = base;
  pos_ = 0;
  size_ = initial.size();
  eof_ = false;
  if (buf_.size() < initial.size()) buf_.resize(initial.size());
  if (!initial.empty()) std::memcpy(buf_.data(), initial.data(), initial.size());
  position_.chunk = nullptr;

  if (entry != ArrayEntry::kAfterElement) {
    if (!skip_ws()) return error_at(pos_, rapidjson::kParseErrorValueInvalid, false);
    if (buf_[pos_] == ']') {
      if (entry == ArrayEntry::kAfterComma)
        return error_at(pos_, rapidjson::kParseErrorValueInvalid, false);
      ++pos_;
      return std::nullopt;
    }
  }
  bool element_next = entry != ArrayEntry::kAfterElement;
  while (true) {
    if (element_next) {
      if (auto err = read_element()) return err;
    }
    element_next = true;
    if (!skip_ws())
      return error_at(pos_, rapidjson::kParseErrorArrayMissCommaOrSquareBracket, false);
    const char c = buf_[pos_];
    if (c == ']') {
      ++pos_;
      return std::nullopt;
    }
    if (c != ',') return error_at(pos_, rapidjson::kParseErrorArrayMissCommaOrSquareBracket, false);
    ++pos_;
    if (!skip_ws()) return error_at(pos_, rapidjson::kParseErrorValueInvalid, false);
    if (buf_[pos_] == ']') return error_at(pos_, rapidjson::kParseErrorValueInvalid, false);
    if (base_ + pos_ >= pause_after) {
      paused_ = true;
      return std::nullopt;
    }
  }
}

}  // namespace loupe::core::trace
