#pragma once
// Reading members of the small JSON documents the trace carries (distributedInfo, step
// records, recording metadata).
#include <cstdint>

#include "loupe/json_value.hpp"

namespace loupe::core::trace {

// The member as an integer (a double truncated toward zero); 0 when absent or not a number.
// Integers are read as integers: ns since the epoch do not fit a double exactly.
inline std::int64_t int_at(const Json& object, const char* key) {
  const Json* v = object.find(key);
  if (v == nullptr) return 0;
  if (v->is_int()) return v->as_int();
  return v->is_number() ? static_cast<std::int64_t>(v->as_double()) : 0;
}

}  // namespace loupe::core::trace
