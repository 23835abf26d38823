// The shape key of a perf lookup (spec §1.6, parse_first_shape): the first element of an
// "Input Dims" value, as a canonical string. std::nullopt is TraceLens's None key.
//
// Deviation (Q8, both modes): nested lists are normalised recursively, so a TensorList first
// argument gives a key instead of TraceLens's TypeError crash.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "loupe/json_value.hpp"

namespace loupe::fusion {

using ShapeKey = std::optional<std::string>;

// parse_first_shape(text) for a CSV cell (the text of a Python literal such as
// "((8944, 1024), (1024, 2816))"). Empty or unparsable text gives nullopt.
ShapeKey shape_key_from_literal(std::string_view text);

// parse_first_shape(v) for a candidate's input_dims JSON value, applied only when the value is
// truthy (shape_aware_lookup); a falsy value (null, [], "", 0, false, {}) gives nullopt.
ShapeKey shape_key_from_json(const Json& input_dims);

}  // namespace loupe::fusion
