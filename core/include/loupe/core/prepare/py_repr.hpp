// Python's repr() / str() of the values TraceLens writes into CSV cells: strings, numbers that
// are Python ints or floats, and trace args after `json.loads` plus TraceLens's list -> tuple
// conversion (e.g. Input Dims `[[512], []]` -> "((512,), ())").
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "loupe/core/prepare/gpu_intervals.hpp"  // PandasNumber
#include "loupe/json_value.hpp"

namespace loupe::core::prepare {

// repr(str) for UTF-8 text: single quotes unless the text holds ' and no ", backslash and
// quote escapes, \n \r \t, \xNN for other C0/C1 controls, DEL, NBSP and soft hyphen.
std::string py_str_repr(std::string_view text);

// repr() of an int (exact integer spelling) or a float (shortest round-trip).
std::string py_number_repr(const PandasNumber& number);

// repr() of a JSON value as Python's json module loads it; with `lists_as_tuples`, arrays
// become tuples recursively (dicts are left alone, as TraceLens's list_to_tuple does).
std::string py_json_repr(const Json& value, bool lists_as_tuples);

// str() of the same value: a top-level string is its own text, anything else its repr.
std::string py_json_str(const Json& value, bool lists_as_tuples);

// text[:max_code_points] on a UTF-8 string (Python slices by code point, not byte).
std::string_view py_prefix(std::string_view text, std::size_t max_code_points);
// len(text) in code points.
std::size_t py_len(std::string_view text);

}  // namespace loupe::core::prepare
