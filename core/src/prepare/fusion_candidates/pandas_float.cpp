// pandas precise_xstrtod: up to 17 significant digits (leading zeros included) accumulated in a
// double, then one multiplication or division by a power of ten.
#include "pandas_float.hpp"

#include <array>
#include <cctype>
#include <cmath>

namespace loupe::core::prepare::fusion {
namespace {

const std::array<double, 309>& powers_of_ten() {
  static const std::array<double, 309> table = [] {
    std::array<double, 309> t{};
    for (int i = 0; i < 309; ++i) t[static_cast<std::size_t>(i)] = std::pow(10.0, i);
    return t;
  }();
  return table;
}

bool digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

std::optional<double> pandas_parse_float(std::string_view text) {
  constexpr int kMaxDigits = 17;
  std::size_t p = 0;
  while (p < text.size() && std::isspace(static_cast<unsigned char>(text[p])) != 0) ++p;
  bool negative = false;
  if (p < text.size() && (text[p] == '-' || text[p] == '+')) {
    negative = text[p] == '-';
    ++p;
  }
  double number = 0.0;
  int exponent = 0;
  int num_digits = 0;
  while (p < text.size() && digit(text[p])) {
    if (num_digits < kMaxDigits) {
      number = number * 10.0 + (text[p] - '0');
      ++num_digits;
    } else {
      ++exponent;
    }
    ++p;
  }
  if (p < text.size() && text[p] == '.') {
    ++p;
    int num_decimals = 0;
    while (num_digits < kMaxDigits && p < text.size() && digit(text[p])) {
      number = number * 10.0 + (text[p] - '0');
      ++p;
      ++num_digits;
      ++num_decimals;
    }
    if (num_digits >= kMaxDigits) {
      while (p < text.size() && digit(text[p])) ++p;
    }
    exponent -= num_decimals;
  }
  if (num_digits == 0) return std::nullopt;
  if (negative) number = -number;
  if (p < text.size() && (text[p] == 'e' || text[p] == 'E')) {
    ++p;
    bool exp_negative = false;
    if (p < text.size() && (text[p] == '-' || text[p] == '+')) {
      exp_negative = text[p] == '-';
      ++p;
    }
    if (p >= text.size() || !digit(text[p])) return std::nullopt;
    int n = 0;
    while (p < text.size() && digit(text[p])) {
      if (n < 100000) n = n * 10 + (text[p] - '0');
      ++p;
    }
    exponent += exp_negative ? -n : n;
  }
  while (p < text.size() && std::isspace(static_cast<unsigned char>(text[p])) != 0) ++p;
  if (p != text.size()) return std::nullopt;
  const auto& e = powers_of_ten();
  if (exponent > 308) return negative ? -HUGE_VAL : HUGE_VAL;
  if (exponent > 0) return number * e[static_cast<std::size_t>(exponent)];
  if (exponent < -308) {
    if (exponent < -616) return 0.0 * number;
    number /= e[static_cast<std::size_t>(-308 - exponent)];
    return number / e[308];
  }
  return number / e[static_cast<std::size_t>(-exponent)];
}

}  // namespace loupe::core::prepare::fusion
