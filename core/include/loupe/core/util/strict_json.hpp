// The one writer for JSON built from data read back from files (another run's findings.json, a
// findings file being validated): RFC 8259 JSON that every parser reads. Every string must be
// valid UTF-8 (no raw bytes that are not, no encoded surrogates: a `\udc00` read from a file) and
// every number finite (no NaN or Infinity, which Python's json module writes and reads but
// RFC 8259 and most parsers refuse). A value that is not is refused, with its path, never
// written. Header-only (no fmt call, so any library can use it): the validator, the report code
// and the CLI share it (docs/report.md).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>

#include "loupe/core/util/text_escape.hpp"
#include "loupe/json_value.hpp"

namespace loupe::core {

// Why `text` is not valid UTF-8 ("byte 0xff at offset 3"), or empty when it is.
inline std::string invalid_utf8_reason(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t length = utf8_sequence_length(text, i);
    if (length == 0) {
      char why[64];
      std::snprintf(why, sizeof why, "byte 0x%02x at offset %zu is not valid UTF-8",
                    static_cast<unsigned>(static_cast<unsigned char>(text[i])), i);
      return why;
    }
    i += length;
  }
  return {};
}

// Why `value` cannot be written as strict JSON: the path of the first value refused (`$` is the
// root, `$.grew[0].title`) and the reason; empty when every value can be written.
inline std::string strict_json_problem(const Json& value, const std::string& path = "$") {
  if (value.is_double() && !std::isfinite(value.as_double())) {
    return path + " is " + (std::isnan(value.as_double()) ? "NaN" : "infinite") +
           ", not a finite number";
  }
  if (value.is_string()) {
    const std::string why = invalid_utf8_reason(value.as_string());
    return why.empty() ? why : path + ": " + why;
  }
  if (value.is_array()) {
    const auto& items = value.as_array();
    for (std::size_t i = 0; i < items.size(); ++i) {
      std::string why = strict_json_problem(items[i], path + "[" + std::to_string(i) + "]");
      if (!why.empty()) return why;
    }
  }
  if (value.is_object()) {
    for (const auto& [key, member] : value.as_object()) {
      const std::string shown = replace_invalid_utf8(key);  // callers escape for a terminal
      if (std::string why = invalid_utf8_reason(key); !why.empty()) {
        return path + " key '" + shown + "': " + why;
      }
      std::string why = strict_json_problem(member, path + "." + shown);
      if (!why.empty()) return why;
    }
  }
  return {};
}

struct StrictJson {
  std::string text;   // the JSON text; empty when refused
  std::string error;  // strict_json_problem's reason when refused
};

// `value` as JSON with Python's layout (json.dumps(value, indent=indent, ensure_ascii=False):
// non-ASCII text written as UTF-8), or refused when strict_json_problem names a value.
inline StrictJson dump_strict_json(const Json& value, int indent = 2) {
  StrictJson out;
  out.error = strict_json_problem(value);
  if (out.error.empty()) out.text = dump_python_json(value, indent, false);
  return out;
}

}  // namespace loupe::core
