// JSON text -> loupe::Json, the way Python's json module reads it: integers stay ints, other
// numbers doubles (full precision), NaN/Infinity accepted, member order kept.
#pragma once

#include <optional>
#include <string_view>

#include "loupe/json_value.hpp"

namespace loupe::core::prepare {

// nullopt when the text is not valid JSON.
std::optional<Json> try_parse_json_text(std::string_view text);

// Trace args values: the parsed value, or the text itself as a string when it does not parse.
Json parse_json_text(std::string_view text);

}  // namespace loupe::core::prepare
