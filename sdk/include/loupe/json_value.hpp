// An ordered JSON value for building output documents, and a writer that produces exactly what
// Python's json.dumps(obj, indent=2) produces (key order kept, float repr, NaN/Infinity,
// ensure_ascii escapes). Header-only.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "loupe/python_format.hpp"

namespace loupe {

class Json {
 public:
  using Array = std::vector<Json>;
  using Member = std::pair<std::string, Json>;
  using Object = std::vector<Member>;

  Json() = default;
  Json(std::nullptr_t) {}
  Json(bool b) : value_(b) {}
  Json(int i) : value_(static_cast<std::int64_t>(i)) {}
  Json(long i) : value_(static_cast<std::int64_t>(i)) {}
  Json(long long i) : value_(static_cast<std::int64_t>(i)) {}
  Json(unsigned i) : value_(static_cast<std::int64_t>(i)) {}
  Json(unsigned long i) : value_(static_cast<std::int64_t>(i)) {}
  Json(unsigned long long i) : value_(static_cast<std::int64_t>(i)) {}
  Json(double d) : value_(d) {}
  Json(const char* s) : value_(std::string(s)) {}
  Json(std::string_view s) : value_(std::string(s)) {}
  Json(std::string s) : value_(std::move(s)) {}
  Json(Array a) : value_(std::move(a)) {}
  Json(Object o) : value_(std::move(o)) {}

  static Json object() { return {Object{}}; }
  static Json array() { return {Array{}}; }

  bool is_null() const { return std::holds_alternative<std::monostate>(value_); }
  bool is_bool() const { return std::holds_alternative<bool>(value_); }
  bool is_int() const { return std::holds_alternative<std::int64_t>(value_); }
  bool is_double() const { return std::holds_alternative<double>(value_); }
  bool is_number() const { return is_int() || is_double(); }
  bool is_string() const { return std::holds_alternative<std::string>(value_); }
  bool is_array() const { return std::holds_alternative<Array>(value_); }
  bool is_object() const { return std::holds_alternative<Object>(value_); }

  bool as_bool() const { return std::get<bool>(value_); }
  std::int64_t as_int() const { return std::get<std::int64_t>(value_); }
  double as_double() const {
    return is_int() ? static_cast<double>(as_int()) : std::get<double>(value_);
  }
  const std::string& as_string() const { return std::get<std::string>(value_); }
  const Array& as_array() const { return std::get<Array>(value_); }
  Array& as_array() { return std::get<Array>(value_); }
  const Object& as_object() const { return std::get<Object>(value_); }
  Object& as_object() { return std::get<Object>(value_); }

  // Object access: returns the member, appending a null member when the key is new.
  Json& operator[](std::string_view key) {
    if (is_null()) value_ = Object{};
    auto& members = as_object();
    for (auto& member : members) {
      if (member.first == key) return member.second;
    }
    members.emplace_back(std::string(key), Json());
    return members.back().second;
  }
  // Object lookup without insertion; nullptr when absent.
  const Json* find(std::string_view key) const {
    if (!is_object()) return nullptr;
    for (const auto& member : as_object()) {
      if (member.first == key) return &member.second;
    }
    return nullptr;
  }
  void push_back(Json element) {
    if (is_null()) value_ = Array{};
    as_array().push_back(std::move(element));
  }
  size_t size() const {
    if (is_array()) return as_array().size();
    if (is_object()) return as_object().size();
    return 0;
  }

 private:
  std::variant<std::monostate, bool, std::int64_t, double, std::string, Array, Object> value_;
};

namespace json_detail {

inline void append_utf8_escaped(std::string& out, std::string_view text, bool ensure_ascii) {
  out.push_back('"');
  size_t i = 0;
  while (i < text.size()) {
    const auto byte = static_cast<unsigned char>(text[i]);
    char esc[16];
    switch (byte) {
      case '"':
        out += "\\\"";
        ++i;
        continue;
      case '\\':
        out += "\\\\";
        ++i;
        continue;
      case '\n':
        out += "\\n";
        ++i;
        continue;
      case '\r':
        out += "\\r";
        ++i;
        continue;
      case '\t':
        out += "\\t";
        ++i;
        continue;
      case '\b':
        out += "\\b";
        ++i;
        continue;
      case '\f':
        out += "\\f";
        ++i;
        continue;
      default:
        break;
    }
    if (byte < 0x20 || (ensure_ascii && byte == 0x7f)) {
      std::snprintf(esc, sizeof(esc), "\\u%04x", byte);
      out += esc;
      ++i;
      continue;
    }
    if (byte < 0x80 || !ensure_ascii) {
      out.push_back(static_cast<char>(byte));
      ++i;
      continue;
    }
    // Decode one UTF-8 sequence; invalid bytes are written as U+FFFD.
    std::uint32_t cp = 0xFFFD;
    size_t len = 1;
    if ((byte & 0xE0) == 0xC0) {
      len = 2;
    } else if ((byte & 0xF0) == 0xE0) {
      len = 3;
    } else if ((byte & 0xF8) == 0xF0) {
      len = 4;
    }
    if (len > 1 && i + len <= text.size()) {
      cp = byte & (0xFFu >> (len + 1));
      for (size_t k = 1; k < len; ++k) {
        cp = (cp << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3Fu);
      }
    } else {
      len = 1;
    }
    i += len;
    if (cp >= 0x10000) {
      const std::uint32_t v = cp - 0x10000;
      std::snprintf(esc, sizeof(esc), "\\u%04x\\u%04x", 0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF));
    } else {
      std::snprintf(esc, sizeof(esc), "\\u%04x", cp);
    }
    out += esc;
  }
  out.push_back('"');
}

inline void append_number(std::string& out, double d) {
  if (std::isnan(d)) {
    out += "NaN";
  } else if (std::isinf(d)) {
    out += d < 0 ? "-Infinity" : "Infinity";
  } else {
    out += py::float_repr(d);
  }
}

inline void dump(std::string& out, const Json& value, int indent, int depth, bool ensure_ascii) {
  const auto newline = [&](int level) {
    if (indent < 0) return;
    out.push_back('\n');
    out.append(static_cast<size_t>(indent) * static_cast<size_t>(level), ' ');
  };
  const char* item_sep = indent < 0 ? ", " : ",";
  if (value.is_null()) {
    out += "null";
  } else if (value.is_bool()) {
    out += value.as_bool() ? "true" : "false";
  } else if (value.is_int()) {
    out += std::to_string(value.as_int());
  } else if (value.is_double()) {
    append_number(out, value.as_double());
  } else if (value.is_string()) {
    append_utf8_escaped(out, value.as_string(), ensure_ascii);
  } else if (value.is_array()) {
    const auto& items = value.as_array();
    if (items.empty()) {
      out += "[]";
      return;
    }
    out.push_back('[');
    for (size_t i = 0; i < items.size(); ++i) {
      if (i > 0) out += item_sep;
      newline(depth + 1);
      dump(out, items[i], indent, depth + 1, ensure_ascii);
    }
    newline(depth);
    out.push_back(']');
  } else {
    const auto& members = value.as_object();
    if (members.empty()) {
      out += "{}";
      return;
    }
    out.push_back('{');
    for (size_t i = 0; i < members.size(); ++i) {
      if (i > 0) out += item_sep;
      newline(depth + 1);
      append_utf8_escaped(out, members[i].first, ensure_ascii);
      out += ": ";
      dump(out, members[i].second, indent, depth + 1, ensure_ascii);
    }
    newline(depth);
    out.push_back('}');
  }
}

}  // namespace json_detail

// json.dumps(value, indent=indent) — indent < 0 means Python's indent=None (one line).
inline std::string dump_python_json(const Json& value, int indent = 2, bool ensure_ascii = true) {
  std::string out;
  json_detail::dump(out, value, indent, 0, ensure_ascii);
  return out;
}

// A JSON array of strings.
inline Json string_array(const std::vector<std::string>& items) {
  Json out = Json::array();
  for (const auto& item : items) out.push_back(item);
  return out;
}
inline Json string_array(const std::vector<std::string_view>& items) {
  Json out = Json::array();
  for (const auto item : items) out.push_back(Json(item));
  return out;
}

// The number, or null when there is none.
inline Json number_or_null(const std::optional<double>& v) { return v ? Json(*v) : Json(); }

// The number rounded half-to-even to `digits` places (Python's round), or null.
inline Json rounded_or_null(const std::optional<double>& v, int digits) {
  return v ? Json(py::round_half_even(*v, digits)) : Json();
}

}  // namespace loupe
