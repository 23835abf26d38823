#include "value_extent.hpp"

namespace loupe::core::trace {

namespace {

// Index just after the string whose opening quote is at `pos`, or kValueIncomplete.
std::size_t string_end(std::string_view text, std::size_t pos) {
  for (std::size_t i = pos + 1; i < text.size(); ++i) {
    if (text[i] == '\\') {
      ++i;  // skip the escaped byte (a \uXXXX's digits need no special care)
    } else if (text[i] == '"') {
      return i + 1;
    }
  }
  return kValueIncomplete;
}

}  // namespace

std::size_t find_value_end(std::string_view text, std::size_t pos) {
  if (pos >= text.size()) return kValueIncomplete;
  const char first = text[pos];
  if (first == '"') return string_end(text, pos);
  if (first == '{' || first == '[') {
    std::size_t depth = 0;
    for (std::size_t i = pos; i < text.size(); ++i) {
      switch (text[i]) {
        case '"':
          i = string_end(text, i);
          if (i == kValueIncomplete) return kValueIncomplete;
          --i;  // the loop's ++i moves past the closing quote
          break;
        case '{':
        case '[':
          ++depth;
          break;
        case '}':
        case ']':
          if (--depth == 0) return i + 1;
          break;
        default:
          break;
      }
    }
    return kValueIncomplete;
  }
  for (std::size_t i = pos; i < text.size(); ++i) {
    switch (text[i]) {
      case ' ':
      case '\n':
      case '\r':
      case '\t':
      case ',':
      case ']':
      case '}':
      case ':':
        return i;
      default:
        break;
    }
  }
  return kValueIncomplete;
}

}  // namespace loupe::core::trace
