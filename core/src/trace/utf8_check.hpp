// UTF-8 validity (RFC 3629: no overlongs, no surrogates, <= U+10FFFF), by the one rule in
// loupe/core/util/text_escape.hpp.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

#include "loupe/core/util/text_escape.hpp"

namespace loupe::core::trace {

inline bool is_valid_utf8(std::string_view s) {
  std::size_t i = 0;
  // ASCII, eight bytes at a time (nearly every string of a trace).
  for (std::uint64_t word = 0; i + 8 <= s.size(); i += 8) {
    std::memcpy(&word, s.data() + i, 8);
    if ((word & 0x8080808080808080ull) != 0) break;
  }
  while (i < s.size()) {
    if (static_cast<unsigned char>(s[i]) < 0x80) {
      ++i;
      continue;
    }
    const std::size_t length = utf8_sequence_length(s, i);
    if (length == 0) return false;
    i += length;
  }
  return true;
}

}  // namespace loupe::core::trace
