// Guards for every JSON entry point, applied to the text before RapidJSON sees it (header-only:
// the trace, validate and core libraries all use them): the nesting depth, so that deeply nested
// input is refused before a recursive parser, walker or destructor could overflow the stack; and
// the numbers RapidJSON 1.1's full-precision parser gets wrong (docs/reliability.md).
#pragma once

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
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

// RapidJSON 1.1's full-precision number parser misbehaves on numbers no JSON writer produces but
// an adversary can (found by fuzzing; docs/reliability.md): a zero significand with a large power
// of ten reads as garbage ("0E206" as -7e159, "0.0000000000000000000000000000000" as 1.2e-240), and
// significands of hundreds of digits overflow its arithmetic and can crash it. Returns the text
// with every such number outside strings rewritten (zeros as 0.0 with their sign; a significand of
// more than 19 digits or an exponent beyond +-300 as the correctly rounded double, printed with 17
// significant digits, which the parser reads back exactly), or nothing when there is none to
// change, which is the case for JSON that Python or Loupe wrote.
inline std::optional<std::string> numbers_safe_for_rapidjson(std::string_view text) {
  std::optional<std::string> out;
  JsonStringState strings;
  std::size_t copied = 0;
  auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (strings.consume(c)) continue;
    auto continues_number = [&](std::size_t at) {
      return at < text.size() && (is_digit(text[at]) || text[at] == '.' || text[at] == 'e' ||
                                  text[at] == 'E' || text[at] == '+' || text[at] == '-');
    };
    // "NaN" / "Infinity" glued to digits or an exponent ("NaNE50") trips an assertion in the
    // parser: keep the tail apart (the text stays malformed).
    for (const std::string_view word : {std::string_view("NaN"), std::string_view("Infinity")}) {
      if (text.substr(i, word.size()) == word && continues_number(i + word.size())) {
        if (!out) out.emplace();
        out->append(text.substr(copied, i + word.size() - copied));
        out->push_back(' ');
        copied = i + word.size();
      }
    }
    if (c != '-' && !is_digit(c)) continue;
    // A number token: sign, digits and '.', then an optional exponent.
    // As the parser reads it: -? digits (. digits)? ([eE] [+-]? digits)?
    std::size_t j = i + (c == '-' ? 1 : 0);
    bool nonzero = false;
    bool dot = false;
    std::size_t significant = 0;  // significand digits
    auto digits = [&] {
      while (j < text.size() && is_digit(text[j])) {
        nonzero = nonzero || text[j] != '0';
        ++significant;
        ++j;
      }
    };
    digits();
    if (j < text.size() && text[j] == '.') {
      dot = true;
      ++j;
      digits();
    }
    bool exponent = false;
    long exponent_value = 0;  // its magnitude, capped
    if (j < text.size() && (text[j] == 'e' || text[j] == 'E')) {
      std::size_t k = j + 1;
      if (k < text.size() && (text[k] == '+' || text[k] == '-')) ++k;
      const std::size_t digits_start = k;
      while (k < text.size() && is_digit(text[k])) {
        exponent_value = std::min(exponent_value * 10 + (text[k] - '0'), 100000L);
        ++k;
      }
      if (k > digits_start) {
        exponent = true;
        j = k;
      }
    }
    const std::string_view token = text.substr(i, j - i);
    std::string replacement;
    if (!nonzero) {
      if ((dot || exponent) && token != "0.0" && token != "-0.0" && significant > 0) {
        replacement = c == '-' ? "-0.0" : "0.0";
      }
    } else if (significant > 19 || exponent_value > 300) {
      const std::string copy(token);
      errno = 0;
      const double value = std::strtod(copy.c_str(), nullptr);
      if (errno != ERANGE || value == 0.0) {
        char buffer[40];
        std::snprintf(buffer, sizeof(buffer), "%.17g", value);
        replacement = buffer;
        if (replacement.find_first_of(".eEn") == std::string::npos) replacement += ".0";
      }
    }
    if (!replacement.empty()) {
      if (!out) out.emplace();
      out->append(text.substr(copied, i - copied));
      out->append(replacement);
      // Malformed text such as "0E062e-66": keep the rest from extending the new number.
      if (continues_number(j)) out->push_back(' ');
      copied = j;
    }
    i = j > i ? j - 1 : i;
  }
  if (out) out->append(text.substr(copied));
  return out;
}

}  // namespace loupe::core
