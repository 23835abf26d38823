// Python number helpers for the data file: round() that keeps ints, and the Json spelling.
#pragma once

#include <cstdint>

#include "loupe/core/prepare/gpu_intervals.hpp"
#include "loupe/json_value.hpp"
#include "loupe/python_format.hpp"

namespace loupe::core::prepare::mk {

// round(x, n): an int stays an int, a float is rounded half-even on its binary value.
inline PandasNumber py_round(PandasNumber x, int ndigits) {
  if (x.is_int) return x;
  return {py::round_half_even(x.value, ndigits), false};
}

inline PandasNumber py_float(double v) { return {v, false}; }

inline loupe::Json to_json(PandasNumber x) {
  if (x.is_int) return loupe::Json(static_cast<std::int64_t>(x.value));
  return loupe::Json(x.value);
}

// sum() of Python numbers, left to right from the int 0.
class PySum {
 public:
  void add(PandasNumber x) {
    total_ += x.value;
    is_int_ = is_int_ && x.is_int;
  }
  PandasNumber value() const { return {total_, is_int_}; }

 private:
  double total_ = 0.0;
  bool is_int_ = true;
};

}  // namespace loupe::core::prepare::mk
