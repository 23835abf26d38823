// The shape key of a perf lookup (spec docs/contracts/fusion.md §1.6, parse_first_shape): the first element of
// an "Input Dims" value, as a canonical string; std::nullopt is TraceLens's None key.
//
// The key is the recursively normalised first element: sequences as "(a,b)" whatever their
// brackets ("(2,3)", "((4,4),(4,4))", "()"); numbers so that values Python compares equal
// (2, 2.0, True) give the same text; strings by their repr. Two keys are equal exactly when
// TraceLens's tuple keys compare equal.
//
// Deviation (Q8): nested lists (and dicts or sets) inside the first element are normalised
// instead of raising TraceLens's "unhashable type" TypeError, so a TensorList argument has a key.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "loupe/json_value.hpp"

namespace loupe::compute {

// parse_first_shape(text) of a CSV cell, e.g. "((8944, 1024), (1024, 2816))" -> "(8944,1024)".
// Empty or unparsable text, an empty sequence, a non-sequence, or a first element that is not a
// list or tuple gives nullopt.
std::optional<std::string> first_shape_key(std::string_view literal_text);

// parse_first_shape(v) of an input_dims JSON value: a string is read as a literal, an array as
// the list it is. Every falsy value (null, false, 0, "", [], {}) gives nullopt, so callers need
// no separate truthiness check before the lookup (shape_aware_lookup).
std::optional<std::string> first_shape_key(const Json& input_dims);

// Text arguments are literals: these keep "..." and std::string from being ambiguous with Json.
inline std::optional<std::string> first_shape_key(const char* literal_text) {
  return first_shape_key(std::string_view(literal_text));
}
inline std::optional<std::string> first_shape_key(const std::string& literal_text) {
  return first_shape_key(std::string_view(literal_text));
}

}  // namespace loupe::compute
