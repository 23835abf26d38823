// Reading fields of the metrics JSON without a presence check at every step: an absent key, a
// non-object or a value of another type reads as null / empty text / NaN. For code that walks the
// metrics document (findings prose, default-mode corrections).
#pragma once

#include <cmath>
#include <string>
#include <string_view>

#include "loupe/json_value.hpp"

namespace loupe::compute {

// The member, or a null value when `object` is null, not an object, or has no such key.
inline const Json& field(const Json* object, std::string_view key) {
  static const Json kNull;
  const Json* v = object != nullptr && object->is_object() ? object->find(key) : nullptr;
  return v == nullptr ? kNull : *v;
}
inline const Json& field(const Json& object, std::string_view key) { return field(&object, key); }

// A string member as text, else "".
inline std::string field_text(const Json* object, std::string_view key) {
  const Json& v = field(object, key);
  return v.is_string() ? v.as_string() : std::string();
}
inline std::string field_text(const Json& object, std::string_view key) {
  return field_text(&object, key);
}

// A numeric member as double, else NaN.
inline double field_number(const Json* object, std::string_view key) {
  const Json& v = field(object, key);
  return v.is_number() ? v.as_double() : std::nan("");
}
inline double field_number(const Json& object, std::string_view key) {
  return field_number(&object, key);
}

}  // namespace loupe::compute
