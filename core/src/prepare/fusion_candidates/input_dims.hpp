// Values read from trace args and perf CSV cells: JSON args as loupe::Json, Python literals
// (ast.literal_eval subset) for `perf_params` / `Input Dims`, and the shape key of §1.6.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "json_text.hpp"
#include "loupe/json_value.hpp"

namespace loupe::core::prepare::fusion {

// Compact JSON text (an args value) -> Json; integers stay ints, floats doubles.
using loupe::core::prepare::parse_json_text;

// A Python literal value.
struct PyValue {
  enum class Kind : std::uint8_t { kNone, kBool, kInt, kFloat, kStr, kList, kTuple, kDict, kSet };
  Kind kind = Kind::kNone;
  bool b = false;
  std::int64_t i = 0;
  double f = 0.0;
  std::string s;
  std::vector<PyValue> items;                        // list / tuple / set
  std::vector<std::pair<PyValue, PyValue>> members;  // dict

  bool truthy() const;
  const PyValue* get(std::string_view key) const;  // dict lookup by string key
  bool is_sequence() const { return kind == Kind::kList || kind == Kind::kTuple; }
};

// ast.literal_eval of `text`; nullopt when Python would raise.
std::optional<PyValue> parse_python_literal(std::string_view text);

// §1.6 parse_first_shape on a Python-literal text; nullopt is "none". The key is the
// recursively normalised first element ("(2,3)", "((4,4),(4,4))", "()").
std::optional<std::string> first_shape_key(std::string_view literal_text);
// Same for an Input Dims JSON value (Python would first render it with repr).
std::optional<std::string> first_shape_key(const Json& input_dims);

}  // namespace loupe::core::prepare::fusion
