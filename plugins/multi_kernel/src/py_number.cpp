#include "py_number.hpp"

#include <cstdio>
#include <cstdlib>

#include "loupe/python_format.hpp"

namespace loupe::multi_kernel {

double py_div(PyNumber x, double divisor) { return x.value() / divisor; }

PyNumber py_mul(PyNumber x, std::int64_t factor) {
  if (x.is_int()) return PyNumber::integer(x.int_value() * factor);
  return PyNumber::real(x.value() * static_cast<double>(factor));
}

std::string fixed(double value, int decimals) {
  char buf[512];
  std::snprintf(buf, sizeof(buf), "%.*f", decimals, value);
  return buf;
}

std::string percent_format(double ratio, int decimals) {
  return fixed(ratio * 100.0, decimals) + "%";
}

std::string fixed_apart_from(double value, double threshold, int min_decimals) {
  int decimals = min_decimals;
  std::string text = fixed(value, decimals);
  while (decimals < 6) {
    const double shown = std::strtod(text.c_str(), nullptr);
    const bool misleading =
        (value > threshold && shown <= threshold) || (value < threshold && shown >= threshold);
    if (!misleading) break;
    text = fixed(value, ++decimals);
  }
  return text;
}

}  // namespace loupe::multi_kernel
