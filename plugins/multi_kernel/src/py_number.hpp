// A number that keeps Python's int/float distinction, so that the metrics document spells
// values exactly as TraceLens's json.dump does (0 vs 0.0, 200 vs 200.0).
#pragma once

#include <cstdint>
#include <string>

#include "loupe/json_value.hpp"

namespace loupe::multi_kernel {

class PyNumber {
 public:
  constexpr PyNumber() = default;
  static constexpr PyNumber integer(std::int64_t value) { return PyNumber(true, value, 0.0); }
  static constexpr PyNumber real(double value) { return PyNumber(false, 0, value); }

  bool is_int() const { return is_int_; }
  double value() const { return is_int_ ? static_cast<double>(int_) : real_; }
  std::int64_t int_value() const { return int_; }

  Json to_json() const;
  // Python str(): "55" for ints, repr for floats ("55.0", "1e-05").
  std::string str() const;

 private:
  constexpr PyNumber(bool is_int, std::int64_t i, double d) : is_int_(is_int), int_(i), real_(d) {}
  bool is_int_ = true;
  std::int64_t int_ = 0;
  double real_ = 0.0;
};

// Python round(x, n): ints stay ints, floats round half-even on the binary value.
PyNumber py_round(PyNumber x, int ndigits);
// Python x / divisor (true division: always a float).
double py_div(PyNumber x, double divisor);
// Python x * factor with an int factor: int stays int.
PyNumber py_mul(PyNumber x, std::int64_t factor);

// printf("%.Nf") of a double, as Python's f"{x:.Nf}".
std::string fixed(double value, int decimals);
// f"{ratio:.1%}" = "%.1f%%" of ratio*100.
std::string percent_format(double ratio, int decimals);
// Shortest fixed rendering (at least min_decimals, at most 6) that does not print a value
// on the other side of a threshold as equal to it: 5.004 > 5 prints "5.004", not "5.0".
std::string fixed_apart_from(double value, double threshold, int min_decimals);

}  // namespace loupe::multi_kernel
