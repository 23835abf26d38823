#include "model_support.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <utility>

namespace loupe::core::prepare::perf::detail {

void fail(std::string message) { throw ModelException{ModelError::kFailed, std::move(message)}; }
void not_implemented(std::string message) {
  throw ModelException{ModelError::kNotImplemented, std::move(message)};
}

const Json& at(const Json& list, std::size_t i, std::string_view what) {
  if (!list.is_array()) fail(std::string(what).append(": not a list"));
  if (i >= list.size()) fail(std::string(what).append(": index out of range"));
  return list.as_array()[i];
}

const Json& required(const Json& value, std::string_view what) {
  if (value.is_null()) fail(std::string(what).append(": missing"));
  return value;
}

Shape shape_of(const Json& v, std::string_view what) {
  if (!v.is_array()) fail(std::string(what).append(": not a shape"));
  Shape out;
  out.reserve(v.size());
  for (const auto& d : v.as_array()) {
    if (!d.is_int()) fail(std::string(what).append(": non-integer dimension"));
    out.push_back(d.as_int());
  }
  return out;
}

const std::string& string_at(const Json& list, std::size_t i, std::string_view what) {
  const Json& v = at(list, i, what);
  if (!v.is_string()) fail(std::string(what).append(": not a string"));
  return v.as_string();
}

bool is_not_none(const Json& list, std::size_t i, std::string_view what) {
  return !at(list, i, what).is_null();
}

PyValue py(const Json& v) {
  if (v.is_null()) return PyValue();
  if (v.is_bool()) return PyValue(v.as_bool());
  if (v.is_int()) return PyValue(v.as_int());
  if (v.is_double()) return PyValue(v.as_double());
  if (v.is_string()) return PyValue(v.as_string());
  if (v.is_array()) {
    PyValue::List list;
    for (const auto& item : v.as_array()) list.items.push_back(py(item));
    return PyValue(std::move(list));
  }
  PyValue::Dict dict;
  for (const auto& [key, value] : v.as_object()) dict.emplace_back(PyValue(key), py(value));
  return PyValue(std::move(dict));
}

PyValue py_tuple(const Json& v) {
  if (!v.is_array()) fail("tuple() of a non-list");
  PyValue::List list;
  list.is_tuple = true;
  for (const auto& item : v.as_array()) list.items.push_back(py(item));
  return PyValue(std::move(list));
}

PyValue py_tuple(const Shape& v) {
  PyValue::List list;
  list.is_tuple = true;
  for (const auto d : v) list.items.emplace_back(d);
  return PyValue(std::move(list));
}

PyValue py_str(std::string s) { return PyValue(std::move(s)); }
PyValue py_int(std::int64_t i) { return PyValue(i); }
PyValue py_bool(bool b) { return PyValue(b); }
PyValue py_none() { return PyValue(); }
PyValue py_float(double d) { return PyValue(d); }

PyValue tuple_of(std::vector<PyValue> items) {
  return PyValue(PyValue::List{std::move(items), true});
}
PyValue list_of(std::vector<PyValue> items) {
  return PyValue(PyValue::List{std::move(items), false});
}

PyValue slice_tuple(const Json& list, std::size_t begin, std::size_t end) {
  if (!list.is_array()) fail("slice of a non-list");
  std::vector<PyValue> items;
  for (std::size_t i = begin; i < end && i < list.size(); ++i) {
    items.push_back(py(list.as_array()[i]));
  }
  return tuple_of(std::move(items));
}

namespace {

std::string_view strip(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// A tiny literal reader for "[1, 2]" / "[True, False]" (what parse_list receives).
std::vector<std::string_view> list_items(std::string_view text) {
  const std::string_view s = strip(text);
  if (s.size() < 2 || (s.front() != '[' && s.front() != '(') ||
      (s.back() != ']' && s.back() != ')')) {
    fail("parse_list: not a list literal");
  }
  std::vector<std::string_view> items;
  std::string_view body = strip(s.substr(1, s.size() - 2));
  while (!body.empty()) {
    const auto comma = body.find(',');
    items.push_back(strip(body.substr(0, comma)));
    if (comma == std::string_view::npos) break;
    body = strip(body.substr(comma + 1));
  }
  return items;
}

}  // namespace

std::int64_t py_int_of(std::string_view text) {
  std::string s(strip(text));
  s.erase(std::remove(s.begin(), s.end(), '_'), s.end());
  if (s.empty()) fail("int(): empty string");
  char* end = nullptr;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (end != s.c_str() + s.size()) fail("int(): invalid literal");
  return v;
}

std::optional<double> try_py_float(std::string_view text) {
  const std::string s(strip(text));
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size()) return std::nullopt;
  return v;
}

double py_float_of(std::string_view text) {
  const auto v = try_py_float(text);
  if (!v) fail("float(): invalid literal");
  return *v;
}

bool eval_bool(std::string_view text) {
  const std::string_view s = strip(text);
  if (s == "True") return true;
  if (s == "False") return false;
  fail("eval(): not a bool literal");
}

std::vector<std::int64_t> parse_int_list(std::string_view text) {
  std::vector<std::int64_t> out;
  for (const auto item : list_items(text)) {
    if (item == "True" || item == "False") {
      out.push_back(item == "True" ? 1 : 0);
    } else {
      out.push_back(py_int_of(item));
    }
  }
  return out;
}

std::vector<bool> parse_bool_list(std::string_view text) {
  std::vector<bool> out;
  for (const auto item : list_items(text)) {
    if (item == "True" || item == "False") {
      out.push_back(item == "True");
    } else if (const auto number = try_py_float(item)) {
      out.push_back(*number != 0.0);
    } else if (item.size() >= 2 && (item.front() == '\'' || item.front() == '"')) {
      out.push_back(item.size() > 2);
    } else if (item == "None") {
      out.push_back(false);
    } else {
      fail("parse_list: unsupported literal");
    }
  }
  return out;
}

void add_int_params(std::vector<std::pair<std::string, PyValue>>& params,
                    std::initializer_list<std::pair<const char*, PyInt>> items) {
  for (const auto& [key, value] : items) {
    params.emplace_back(key, py_int(static_cast<std::int64_t>(value)));
  }
}

PyInt prod(const Shape& shape) { return prod(shape, 0); }

PyInt floor_div(PyInt a, PyInt b) {
  if (b == 0) fail("integer division by zero");
  PyInt q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

void set_precision(FamilyOutput& out, const std::string& dtype) {
  if (dtype.empty()) return;
  out.precision_dtype = dtype;
  out.has_precision_dtype = true;
}

PyInt prod(const Shape& shape, std::size_t from) {
  PyInt p = 1;
  for (std::size_t i = from; i < shape.size(); ++i) p *= shape[i];
  return p;
}

FormulaNumber operator+(const FormulaNumber& a, const FormulaNumber& b) {
  if (a.is_int && b.is_int) return FormulaNumber::from_int(a.i + b.i);
  return FormulaNumber::from_float(a.to_double() + b.to_double());
}

FormulaNumber operator*(const FormulaNumber& a, const FormulaNumber& b) {
  if (a.is_int && b.is_int) return FormulaNumber::from_int(a.i * b.i);
  return FormulaNumber::from_float(a.to_double() * b.to_double());
}

FormulaNumber operator-(const FormulaNumber& a, const FormulaNumber& b) {
  if (a.is_int && b.is_int) return FormulaNumber::from_int(a.i - b.i);
  return FormulaNumber::from_float(a.to_double() - b.to_double());
}

bool py_equal(const FormulaNumber& a, const FormulaNumber& b) {
  if (a.is_int && b.is_int) return a.i == b.i;
  return a.to_double() == b.to_double();
}

FormulaNumber floor_div(const FormulaNumber& a, const FormulaNumber& b) {
  if (a.is_int && b.is_int) {
    if (b.i == 0) fail("integer division or modulo by zero");
    PyInt q = a.i / b.i;
    if (q * b.i != a.i && ((a.i < 0) != (b.i < 0))) --q;
    return FormulaNumber::from_int(q);
  }
  const double x = a.to_double();
  const double y = b.to_double();
  if (y == 0.0) fail("float floor division by zero");
  // CPython's float floor division: from fmod, so that x == q * y + (x % y) holds.
  const double mod = std::fmod(x, y);
  double div = (x - mod) / y;
  if (mod != 0.0 && ((y < 0.0) != (mod < 0.0))) div -= 1.0;
  if (div == 0.0) return FormulaNumber::from_float(std::copysign(0.0, x / y));
  double q = std::floor(div);
  if (div - q > 0.5) q += 1.0;
  return FormulaNumber::from_float(q);
}

double true_div_double(PyInt a, PyInt b) {
  if (b == 0) fail("division by zero");
  constexpr PyInt kExact = PyInt{1} << 53;
  const auto within = [&](PyInt v) { return v < kExact && v > -kExact; };
  if (within(a) && within(b)) return static_cast<double>(a) / static_cast<double>(b);
  // Beyond 2^53 Python rounds the exact quotient once; long double is close enough here.
  return static_cast<double>(static_cast<long double>(a) / static_cast<long double>(b));
}

FormulaNumber true_div(const FormulaNumber& a, const FormulaNumber& b) {
  if (a.is_int && b.is_int) return FormulaNumber::from_float(true_div_double(a.i, b.i));
  const double d = b.to_double();
  if (d == 0.0) fail("float division by zero");
  return FormulaNumber::from_float(a.to_double() / d);
}

}  // namespace loupe::core::prepare::perf::detail

namespace loupe::core::prepare::perf {

double FormulaNumber::to_double() const { return is_int ? static_cast<double>(i) : f; }

}  // namespace loupe::core::prepare::perf
