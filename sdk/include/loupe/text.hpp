// Small text helpers shared by the host and the plugins, so each exists once.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace loupe::text {

// ASCII lowercase (bytes above 0x7F unchanged): for matching names of ops, kernels and options.
// Python's str.lower() on Unicode text is the validator's own (python_text.hpp).
inline char ascii_lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}
inline std::string ascii_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = ascii_lower(c);
  return out;
}

// Whether `part` occurs in `text` (std::string_view::contains from C++23).
inline bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

// The items with `separator` between each two.
inline std::string join(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += separator;
    out += items[i];
  }
  return out;
}

}  // namespace loupe::text
