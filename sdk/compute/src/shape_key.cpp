// The §1.6 shape key over the shared Python-literal reader.
#include "loupe/compute/shape_key.hpp"

#include <cmath>
#include <utility>

#include "loupe/compute/py_literal.hpp"
#include "loupe/python_format.hpp"

namespace loupe::compute {
namespace {

// Python's int/float equality: an integral float below 2^63 prints as the int it equals.
std::string float_key(double value) {
  if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 9.2e18) {
    return std::to_string(static_cast<long long>(value));
  }
  return py::float_repr(value);
}

void append_items(const std::vector<PyValue>& items, std::string& out);

void append_key(const PyValue& v, std::string& out) {
  if (v.is_none()) {
    out += "None";
  } else if (v.is_bool()) {
    out += v.as_bool() ? '1' : '0';
  } else if (v.is_int()) {
    out += std::to_string(v.as_int());
  } else if (v.is_float()) {
    out += float_key(v.as_float());
  } else if (v.is_string()) {
    out += v.repr();
  } else if (v.is_sequence()) {
    out += '(';
    append_items(v.items(), out);
    out += ')';
  } else if (v.is_set()) {
    out += '{';
    append_items(v.as_set().items, out);
    out += '}';
  } else {
    out += '{';
    bool first = true;
    for (const auto& [key, value] : v.as_dict()) {
      if (!first) out += ',';
      first = false;
      append_key(key, out);
      out += ':';
      append_key(value, out);
    }
    out += '}';
  }
}

void append_items(const std::vector<PyValue>& items, std::string& out) {
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ',';
    append_key(items[i], out);
  }
}

std::optional<std::string> key_of(const PyValue& root) {
  if (!root.is_sequence() || root.items().empty()) return std::nullopt;
  const PyValue& first = root.items().front();
  if (!first.is_sequence()) return std::nullopt;
  std::string key;
  append_key(first, key);
  return key;
}

// The value literal_eval(repr(v)) gives for a JSON value (arrays are lists).
PyValue from_json(const Json& j) {
  if (j.is_bool()) return PyValue(j.as_bool());
  if (j.is_int()) return PyValue(j.as_int());
  if (j.is_double()) return PyValue(j.as_double());
  if (j.is_string()) return PyValue(j.as_string());
  if (j.is_array()) {
    PyValue::List list;
    for (const auto& item : j.as_array()) list.items.push_back(from_json(item));
    return PyValue(std::move(list));
  }
  if (j.is_object()) {
    PyValue::Dict dict;
    for (const auto& [k, v] : j.as_object()) dict.emplace_back(PyValue(k), from_json(v));
    return PyValue(std::move(dict));
  }
  return {};
}

}  // namespace

std::optional<std::string> first_shape_key(std::string_view literal_text) {
  const auto value = parse_py_literal(literal_text);
  if (!value) return std::nullopt;
  return key_of(*value);
}

std::optional<std::string> first_shape_key(const Json& input_dims) {
  if (input_dims.is_string()) return first_shape_key(std::string_view(input_dims.as_string()));
  return key_of(from_json(input_dims));
}

}  // namespace loupe::compute
