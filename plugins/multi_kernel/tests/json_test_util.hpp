// Helpers for building input documents and comparing JSON text in the multi-kernel tests.
#pragma once

#include <string>
#include <utility>

#include "loupe/json_value.hpp"

namespace mk_test {

using loupe::Json;

inline Json obj(Json::Object members) { return Json(std::move(members)); }

// One-line JSON without the blanks Python's separators add: {"a":1,"b":[2,3]}. Compared
// with the compact expectations copied from the spec.
inline std::string compact(const Json& value) {
  const std::string spaced = loupe::dump_python_json(value, -1);
  std::string out;
  bool in_string = false;
  for (size_t i = 0; i < spaced.size(); ++i) {
    const char c = spaced[i];
    if (in_string) {
      out.push_back(c);
      if (c == '\\' && i + 1 < spaced.size()) {
        out.push_back(spaced[++i]);
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') in_string = true;
    if (c == ' ' && i > 0 && (spaced[i - 1] == ':' || spaced[i - 1] == ',')) continue;
    out.push_back(c);
  }
  return out;
}

}  // namespace mk_test
