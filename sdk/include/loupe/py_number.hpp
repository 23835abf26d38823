// A number that keeps Python's int/float distinction: int + int stays an int, a float makes the
// result a float, and a document spells it as Python's json.dump does (0 vs 0.0, 200 vs 200.0).
// The one such type of the host's report and the plugins. Two representations stay apart on
// purpose: the perf models' formulas multiply shapes into Python ints beyond int64 (128-bit
// `perf::FormulaNumber`, core/include/loupe/core/prepare/perf_model.hpp), and the prepared pandas
// tables hold every cell as the double pandas reads (`prepare::PandasNumber`,
// core/include/loupe/core/prepare/gpu_intervals.hpp; docs/architecture.md, "preparation").
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "loupe/json_value.hpp"
#include "loupe/python_format.hpp"

namespace loupe {

class PyNumber {
 public:
  constexpr PyNumber() = default;
  static constexpr PyNumber integer(std::int64_t value) { return PyNumber(true, value, 0.0); }
  static constexpr PyNumber real(double value) { return PyNumber(false, 0, value); }
  // A JSON number as Python reads it (a bool is the int 0 or 1); nullopt for anything else.
  static std::optional<PyNumber> from_json(const Json& value) {
    if (value.is_bool()) return integer(value.as_bool() ? 1 : 0);
    if (value.is_int()) return integer(value.as_int());
    if (value.is_double()) return real(value.as_double());
    return std::nullopt;
  }

  bool is_int() const { return is_int_; }
  std::int64_t int_value() const { return int_; }
  double value() const { return is_int_ ? static_cast<double>(int_) : real_; }  // float(x)

  Json to_json() const { return is_int_ ? Json(int_) : Json(real_); }
  // Python str(): "55" for ints, repr for floats ("55.0", "1e-05").
  std::string str() const { return is_int_ ? std::to_string(int_) : py::float_repr(real_); }

  friend PyNumber operator+(PyNumber a, PyNumber b) {
    if (a.is_int_ && b.is_int_) return integer(a.int_ + b.int_);
    return real(a.value() + b.value());
  }
  PyNumber& operator+=(PyNumber other) { return *this = *this + other; }

 private:
  constexpr PyNumber(bool is_int, std::int64_t i, double d) : is_int_(is_int), int_(i), real_(d) {}
  bool is_int_ = true;
  std::int64_t int_ = 0;
  double real_ = 0.0;
};

// Python round(x, n): ints stay ints, floats round half-even on the binary value.
inline PyNumber py_round(PyNumber x, int ndigits) {
  return x.is_int() ? x : PyNumber::real(py::round_half_even(x.value(), ndigits));
}

}  // namespace loupe
