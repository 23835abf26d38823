#include "python_text.hpp"

#include <array>
#include <cstdio>

#include "unicode_tables.hpp"
#include "utf8.hpp"

namespace loupe::core::validate_detail {
namespace {

// Length in bytes of the line separator starting at `pos`, or 0.
std::size_t line_separator_length(std::string_view text, std::size_t pos) {
  const auto byte = static_cast<unsigned char>(text[pos]);
  switch (byte) {
    case '\n':
    case '\v':
    case '\f':
    case 0x1C:
    case 0x1D:
    case 0x1E:
      return 1;
    case '\r':
      return pos + 1 < text.size() && text[pos + 1] == '\n' ? 2 : 1;
    case 0xC2:  // U+0085
      return pos + 1 < text.size() && static_cast<unsigned char>(text[pos + 1]) == 0x85 ? 2 : 0;
    case 0xE2: {  // U+2028, U+2029
      if (pos + 2 >= text.size() || static_cast<unsigned char>(text[pos + 1]) != 0x80) {
        return 0;
      }
      const auto third = static_cast<unsigned char>(text[pos + 2]);
      return third == 0xA8 || third == 0xA9 ? 3 : 0;
    }
    default:
      return 0;
  }
}

void append_hex_escape(char prefix, unsigned width, char32_t code_point, std::string& out) {
  std::array<char, 16> buffer{};
  std::snprintf(buffer.data(), buffer.size(), "\\%c%0*x", prefix, static_cast<int>(width),
                static_cast<unsigned>(code_point));
  out += buffer.data();
}

}  // namespace

std::string normalize_newlines(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t pos = 0; pos < text.size(); ++pos) {
    if (text[pos] == '\r') {
      out.push_back('\n');
      if (pos + 1 < text.size() && text[pos + 1] == '\n') {
        ++pos;
      }
    } else {
      out.push_back(text[pos]);
    }
  }
  return out;
}

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t line_start = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t separator = line_separator_length(text, pos);
    if (separator == 0) {
      ++pos;
      continue;
    }
    lines.push_back(text.substr(line_start, pos - line_start));
    pos += separator;
    line_start = pos;
  }
  if (line_start < text.size()) {
    lines.push_back(text.substr(line_start));
  }
  return lines;
}

std::string_view lstrip(std::string_view text) {
  std::size_t pos = 0;
  while (pos < text.size()) {
    const DecodedChar decoded = decode_at(text, pos);
    if (!is_space_char(decoded.code_point)) {
      break;
    }
    pos += decoded.length;
  }
  return text.substr(pos);
}

std::string_view rstrip(std::string_view text) {
  std::size_t end = text.size();
  while (end > 0) {
    const DecodedChar decoded = decode_before(text, end);
    if (!is_space_char(decoded.code_point)) {
      break;
    }
    end -= decoded.length;
  }
  return text.substr(0, end);
}

std::string_view strip(std::string_view text) { return rstrip(lstrip(text)); }

std::string_view strip_char(std::string_view text, char c) {
  const std::size_t first = text.find_first_not_of(c);
  if (first == std::string_view::npos) {
    return text.substr(text.size());
  }
  const std::size_t last = text.find_last_not_of(c);
  return text.substr(first, last - first + 1);
}

std::vector<std::string_view> split_on(std::string_view text, char separator) {
  std::vector<std::string_view> pieces;
  std::size_t start = 0;
  while (true) {
    const std::size_t found = text.find(separator, start);
    if (found == std::string_view::npos) {
      pieces.push_back(text.substr(start));
      return pieces;
    }
    pieces.push_back(text.substr(start, found - start));
    start = found + 1;
  }
}

std::string lower(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t pos = 0;
  while (pos < text.size()) {
    const DecodedChar decoded = decode_at(text, pos);
    append_lowercase(decoded.code_point, out);
    pos += decoded.length;
  }
  return out;
}

std::string repr(std::string_view text) {
  const bool has_single = text.find('\'') != std::string_view::npos;
  const bool has_double = text.find('"') != std::string_view::npos;
  const char quote = has_single && !has_double ? '"' : '\'';
  std::string out(1, quote);
  std::size_t pos = 0;
  while (pos < text.size()) {
    const DecodedChar decoded = decode_at(text, pos);
    const char32_t cp = decoded.code_point;
    if (cp == static_cast<char32_t>(quote) || cp == U'\\') {
      out.push_back('\\');
      out.push_back(static_cast<char>(cp));
    } else if (cp == U'\t') {
      out += "\\t";
    } else if (cp == U'\n') {
      out += "\\n";
    } else if (cp == U'\r') {
      out += "\\r";
    } else if (is_printable_char(cp)) {
      out.append(text.substr(pos, decoded.length));
    } else if (cp <= 0xFF) {
      append_hex_escape('x', 2, cp, out);
    } else if (cp <= 0xFFFF) {
      append_hex_escape('u', 4, cp, out);
    } else {
      append_hex_escape('U', 8, cp, out);
    }
    pos += decoded.length;
  }
  out.push_back(quote);
  return out;
}

std::string repr_list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) {
      out += ", ";
    }
    out += repr(items[i]);
  }
  out += "]";
  return out;
}

std::string replace_all(std::string_view text, std::string_view from, std::string_view to) {
  std::string out;
  std::size_t start = 0;
  while (!from.empty()) {
    const std::size_t found = text.find(from, start);
    if (found == std::string_view::npos) {
      break;
    }
    out.append(text.substr(start, found - start));
    out.append(to);
    start = found + from.size();
  }
  out.append(text.substr(start));
  return out;
}

}  // namespace loupe::core::validate_detail
