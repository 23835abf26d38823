#pragma once
// Minimal UTF-8 helpers. Inputs are validated once (is_valid_utf8) before any matching;
// the decoders stay in bounds even on malformed input.
#include <cstddef>
#include <string>
#include <string_view>

namespace loupe::core::validate_detail {

struct DecodedChar {
  char32_t code_point;
  std::size_t length;  // bytes
};

// Strict validation as done by Python's UTF-8 decoder (no overlongs, no surrogates,
// nothing above U+10FFFF).
bool is_valid_utf8(std::string_view bytes);

// Decodes the character starting at byte offset `pos` (< text.size()).
DecodedChar decode_at(std::string_view text, std::size_t pos);

// Decodes the character ending just before byte offset `pos` (> 0).
DecodedChar decode_before(std::string_view text, std::size_t pos);

void append_utf8(char32_t code_point, std::string& out);

// Advances over the characters whose code point satisfies `predicate`; returns the new offset.
template <typename Predicate>
std::size_t skip_while(std::string_view text, std::size_t pos, Predicate predicate) {
  while (pos < text.size()) {
    const DecodedChar decoded = decode_at(text, pos);
    if (!predicate(decoded.code_point)) break;
    pos += decoded.length;
  }
  return pos;
}

// True when `literal` starts at byte offset `pos` of `text`.
inline bool literal_at(std::string_view text, std::size_t pos, std::string_view literal) {
  return text.substr(pos, literal.size()) == literal;
}

}  // namespace loupe::core::validate_detail
