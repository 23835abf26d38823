#include "pandas_float.hpp"

#include <array>
#include <cmath>
#include <cstdlib>
#include <string>

namespace loupe::core::prepare {

namespace {

constexpr int kMaxDigits = 17;
constexpr int kMaxExponent = 308;

// 1e0 .. 1e308 as the nearest doubles (what the C literals in pandas' table are).
const std::array<double, kMaxExponent + 1>& powers_of_ten() {
  static const auto table = [] {
    std::array<double, kMaxExponent + 1> t{};
    for (int i = 0; i <= kMaxExponent; ++i) {
      t[static_cast<std::size_t>(i)] = std::strtod(("1e" + std::to_string(i)).c_str(), nullptr);
    }
    return t;
  }();
  return table;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

std::optional<double> pandas_parse_float(std::string_view text) {
  std::size_t p = 0;
  const auto at = [&](std::size_t i) { return i < text.size() ? text[i] : '\0'; };
  while (at(p) == ' ' || at(p) == '\t') ++p;
  bool negative = false;
  if (at(p) == '-' || at(p) == '+') negative = at(p++) == '-';

  double number = 0.0;
  int exponent = 0;
  int num_digits = 0;
  while (is_digit(at(p))) {
    if (num_digits < kMaxDigits) {
      number = number * 10.0 + (at(p) - '0');
      ++num_digits;
    } else {
      ++exponent;
    }
    ++p;
  }
  if (at(p) == '.') {
    ++p;
    int num_decimals = 0;
    while (num_digits < kMaxDigits && is_digit(at(p))) {
      number = number * 10.0 + (at(p) - '0');
      ++p;
      ++num_digits;
      ++num_decimals;
    }
    while (is_digit(at(p))) ++p;
    exponent -= num_decimals;
  }
  if (num_digits == 0) return std::nullopt;
  if (negative) number = -number;

  if (at(p) == 'e' || at(p) == 'E') {
    std::size_t q = p + 1;
    bool exp_negative = false;
    if (at(q) == '-' || at(q) == '+') exp_negative = at(q++) == '-';
    int n = 0;
    int exp_digits = 0;
    while (exp_digits < kMaxDigits && is_digit(at(q))) {
      n = n * 10 + (at(q) - '0');
      ++exp_digits;
      ++q;
    }
    if (exp_digits > 0) {
      exponent += exp_negative ? -n : n;
      p = q;
    }
  }
  if (p != text.size()) return std::nullopt;

  const auto& e = powers_of_ten();
  if (exponent > kMaxExponent) return negative ? -HUGE_VAL : HUGE_VAL;
  if (exponent > 0) return number * e[static_cast<std::size_t>(exponent)];
  if (exponent < -kMaxExponent) {
    if (exponent < -2 * kMaxExponent) return 0.0;
    number /= e[static_cast<std::size_t>(-kMaxExponent - exponent)];
    return number / e[kMaxExponent];
  }
  return number / e[static_cast<std::size_t>(-exponent)];
}

}  // namespace loupe::core::prepare
