// Python arithmetic and formatting on PyNumber (loupe/py_number.hpp) that the metrics and the
// findings text spell exactly as TraceLens does.
#pragma once

#include <cstdint>
#include <string>

#include "loupe/py_number.hpp"

namespace loupe::multi_kernel {

using loupe::py_round;
using loupe::PyNumber;

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
