// Small helpers the report writers share (core/src/report): fixed-point numbers for prose and
// tables, and tolerant reads of Json members.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "loupe/core/util/text_escape.hpp"
#include "loupe/json_value.hpp"
#include "loupe/python_format.hpp"

namespace loupe::core::report_detail {

inline constexpr const char* kEmDash = "\xE2\x80\x94";  // U+2014, for an absent value

// Nanoseconds as milliseconds, rounded half-to-even to three places (what the tables show).
inline double ms_of_ns(std::int64_t ns) {
  return py::round_half_even(static_cast<double>(ns) / 1e6, 3);
}

// Fixed-point with `digits` decimals: what a reader sees (not Python's repr).
using py::fixed;

// fixed(v) + unit, or an em dash when there is no value.
inline std::string fixed_or_dash(std::optional<double> v, int digits, std::string_view unit = "") {
  return v ? fixed(*v, digits) + std::string(unit) : std::string(kEmDash);
}

// A finite number, or nullopt for a missing member, another type or NaN.
inline std::optional<double> number_of(const Json* v) {
  if (v == nullptr || !v->is_number()) return std::nullopt;
  const double d = v->as_double();
  if (d != d) return std::nullopt;
  return d;
}
inline std::optional<double> number_at(const Json* object, std::string_view key) {
  return object == nullptr ? std::nullopt : number_of(object->find(key));
}
inline std::optional<double> number_at(const Json& object, std::string_view key) {
  return number_of(object.find(key));
}

// A member, or null (also when `object` is not an object).
inline const Json& member_of(const Json& object, std::string_view key) {
  static const Json kNull;
  const Json* v = object.find(key);
  return v == nullptr ? kNull : *v;
}

// An integer member, or 0.
inline std::int64_t int_or_zero(const Json& object, std::string_view key) {
  const Json& v = member_of(object, key);
  return v.is_int() ? v.as_int() : 0;
}

// A number member, or 0.
inline double number_or_zero(const Json& object, std::string_view key) {
  const Json& v = member_of(object, key);
  return v.is_number() ? v.as_double() : 0.0;
}

// A string member, or "".
inline std::string text_at(const Json& object, std::string_view key) {
  const Json* v = object.find(key);
  return v != nullptr && v->is_string() ? v->as_string() : std::string();
}

// "<heading>:" and a markdown bullet per string of `list` (e.g. a block's `not_used`), then a
// blank line; "" when the list is not an array or is empty.
inline std::string markdown_bullets(const Json& list, std::string_view heading) {
  if (!list.is_array() || list.size() == 0) return {};
  std::string out = std::string(heading) + ":\n\n";
  for (const Json& item : list.as_array()) {
    if (item.is_string()) out += "- " + escape_markup(item.as_string()) + "\n";
  }
  return out + "\n";
}

}  // namespace loupe::core::report_detail
