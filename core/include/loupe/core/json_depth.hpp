// A guard for every JSON entry point (header-only: the trace, validate and core libraries all
// use it): the nesting depth of a JSON text, found without parsing it,
// so that deeply nested input is refused before a recursive parser, walker or destructor could
// overflow the stack.
#pragma once

#include <cstddef>
#include <string_view>

namespace loupe::core {

// The deepest input Loupe accepts anywhere (arrays and objects nested in each other).
inline constexpr std::size_t kMaxJsonDepth = 512;

// True when arrays/objects in `text` nest deeper than `limit` (brackets inside strings do not
// count). Linear, no allocation; malformed text is left to the parser.
inline bool json_nesting_exceeds(std::string_view text, std::size_t limit = kMaxJsonDepth) {
  std::size_t depth = 0;
  bool in_string = false;
  bool escaped = false;
  for (const char c : text) {
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    switch (c) {
      case '"':
        in_string = true;
        break;
      case '[':
      case '{':
        if (++depth > limit) return true;
        break;
      case ']':
      case '}':
        if (depth > 0) --depth;
        break;
      default:
        break;
    }
  }
  return false;
}

}  // namespace loupe::core
