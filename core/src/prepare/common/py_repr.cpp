// Python repr()/str() of CSV cell values.
#include "loupe/core/prepare/py_repr.hpp"

#include <cstdint>

#include "loupe/python_format.hpp"

namespace loupe::core::prepare {

namespace {

// Decodes the UTF-8 sequence starting at text[i]; returns its length (1 on a malformed byte,
// whose value is then the byte itself).
std::size_t decode_utf8(std::string_view text, std::size_t i, std::uint32_t& cp) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  std::size_t length = 1;
  if (lead >= 0xF0 && lead < 0xF8) {
    length = 4;
    cp = lead & 0x07u;
  } else if (lead >= 0xE0) {
    length = 3;
    cp = lead & 0x0Fu;
  } else if (lead >= 0xC0) {
    length = 2;
    cp = lead & 0x1Fu;
  } else {
    cp = lead;
    return 1;
  }
  if (i + length > text.size()) {
    cp = lead;
    return 1;
  }
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0u) != 0x80u) {
      cp = lead;
      return 1;
    }
    cp = (cp << 6) | (byte(i + k) & 0x3Fu);
  }
  return length;
}

// \xNN for a code point below 0x100.
void append_hex_escape(std::string& out, std::uint32_t cp) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += "\\x";
  out += kHex[(cp >> 4) & 0xFu];
  out += kHex[cp & 0xFu];
}

}  // namespace

std::string py_str_repr(std::string_view text) {
  const bool has_single = text.find('\'') != std::string_view::npos;
  const bool has_double = text.find('"') != std::string_view::npos;
  const char quote = has_single && !has_double ? '"' : '\'';
  std::string out(1, quote);
  for (std::size_t i = 0; i < text.size();) {
    std::uint32_t cp = 0;
    const std::size_t length = decode_utf8(text, i, cp);
    if (cp == static_cast<unsigned char>(quote) || cp == '\\') {
      out += '\\';
      out += static_cast<char>(cp);
    } else if (cp == '\n') {
      out += "\\n";
    } else if (cp == '\r') {
      out += "\\r";
    } else if (cp == '\t') {
      out += "\\t";
    } else if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0xA0) || cp == 0xAD) {
      append_hex_escape(out, cp);
    } else {
      out.append(text.substr(i, length));
    }
    i += length;
  }
  out += quote;
  return out;
}

std::string py_number_repr(const PandasNumber& number) {
  if (number.is_int) return std::to_string(static_cast<std::int64_t>(number.value));
  return py::float_repr(number.value);
}

std::string py_json_repr(const Json& value, bool lists_as_tuples) {
  if (value.is_null()) return "None";
  if (value.is_bool()) return value.as_bool() ? "True" : "False";
  if (value.is_int()) return std::to_string(value.as_int());
  if (value.is_double()) return py::float_repr(value.as_double());
  if (value.is_string()) return py_str_repr(value.as_string());
  std::string out;
  if (value.is_array()) {
    const auto& items = value.as_array();
    out += lists_as_tuples ? '(' : '[';
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (i > 0) out += ", ";
      out += py_json_repr(items[i], lists_as_tuples);
    }
    if (lists_as_tuples && items.size() == 1) out += ',';
    out += lists_as_tuples ? ')' : ']';
    return out;
  }
  out += '{';
  bool first = true;
  for (const auto& [key, member] : value.as_object()) {
    if (!first) out += ", ";
    first = false;
    out += py_str_repr(key);
    out += ": ";
    out += py_json_repr(member, false);  // list_to_tuple does not descend into dicts
  }
  out += '}';
  return out;
}

std::string py_json_str(const Json& value, bool lists_as_tuples) {
  if (value.is_string()) return value.as_string();
  return py_json_repr(value, lists_as_tuples);
}

std::string_view py_prefix(std::string_view text, std::size_t max_code_points) {
  std::size_t i = 0;
  for (std::size_t n = 0; i < text.size() && n < max_code_points; ++n) {
    std::uint32_t cp = 0;
    i += decode_utf8(text, i, cp);
  }
  return text.substr(0, i);
}

std::size_t py_len(std::string_view text) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < text.size(); ++n) {
    std::uint32_t cp = 0;
    i += decode_utf8(text, i, cp);
  }
  return n;
}

}  // namespace loupe::core::prepare
