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

}  // namespace loupe::core::validate_detail
