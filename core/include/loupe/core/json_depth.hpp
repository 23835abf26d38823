// Guards for every JSON entry point (header-only: the trace, validate and core libraries all
// use them): the nesting depth of a JSON text, found without parsing it,
// so that deeply nested input is refused before a recursive parser, walker or destructor could
// overflow the stack.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace loupe::core {

// The deepest input Loupe accepts anywhere (arrays and objects nested in each other).
inline constexpr std::size_t kMaxJsonDepth = 512;

// Tracks whether a scan of JSON text is inside a string. Returns true when `c` belongs to a
// string (its quotes included), false when it is structure or a number.
struct JsonStringState {
  bool in_string = false;
  bool escaped = false;
  bool consume(char c) {
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      return true;
    }
    if (c == '"') {
      in_string = true;
      return true;
    }
    return false;
  }
};

// True when arrays/objects in `text` nest deeper than `limit` (brackets inside strings do not
// count). Linear, no allocation; malformed text is left to the parser.
inline bool json_nesting_exceeds(std::string_view text, std::size_t limit = kMaxJsonDepth) {
  std::size_t depth = 0;
  JsonStringState strings;
  for (const char c : text) {
    if (strings.consume(c)) continue;
    switch (c) {
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

// RapidJSON 1.1's full-precision number parser returns garbage for a zero significand that
// carries a large power of ten: "0E206" reads as -7e159 and "0.0000000000000000000000000000000"
// as 1.2e-240 (found by fuzzing). Returns the text with every number outside strings whose digits
// are all zero and that has a fraction or an exponent written as 0.0 (keeping its sign), or
// nothing when there is none to change, which is the case for JSON that Python or Loupe wrote.
inline std::optional<std::string> zero_exponent_numbers_fixed(std::string_view text) {
  std::optional<std::string> out;
  JsonStringState strings;
  std::size_t copied = 0;
  auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (strings.consume(c)) continue;
    if (c != '-' && !is_digit(c)) continue;
    // A number token: sign, digits and '.', then an optional exponent.
    std::size_t j = i + (c == '-' ? 1 : 0);
    bool nonzero = false;
    bool dot = false;
    while (j < text.size() && (is_digit(text[j]) || text[j] == '.')) {
      nonzero = nonzero || (text[j] >= '1' && text[j] <= '9');
      dot = dot || text[j] == '.';
      ++j;
    }
    bool exponent = false;
    if (j < text.size() && (text[j] == 'e' || text[j] == 'E')) {
      std::size_t k = j + 1;
      if (k < text.size() && (text[k] == '+' || text[k] == '-')) ++k;
      const std::size_t digits_start = k;
      while (k < text.size() && is_digit(text[k])) ++k;
      if (k > digits_start) {
        exponent = true;
        j = k;
      }
    }
    const std::string_view token = text.substr(i, j - i);
    const bool needs_fix = !nonzero && (dot || exponent) && token != "0.0" && token != "-0.0" &&
                           token.find_first_of("0") != std::string_view::npos;
    if (needs_fix) {
      if (!out) out.emplace();
      out->append(text.substr(copied, i - copied));
      out->append(c == '-' ? "-0.0" : "0.0");
      // Malformed text such as "0E062e-66": keep the rest from extending the new number.
      if (j < text.size() && (is_digit(text[j]) || text[j] == '.' || text[j] == 'e' ||
                              text[j] == 'E' || text[j] == '+' || text[j] == '-')) {
        out->push_back(' ');
      }
      copied = j;
    }
    i = j > i ? j - 1 : i;
  }
  if (out) out->append(text.substr(copied));
  return out;
}

}  // namespace loupe::core
