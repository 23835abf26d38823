// Python-compatible number formatting and rounding, so that Loupe's output can match files that
// TraceLens (Python) wrote byte for byte. Header-only; used by plugins and by the host.
#pragma once

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace loupe::py {

// repr(float): shortest round-trip digits; fixed notation for exponents in [-4, 16), otherwise
// scientific with at least two exponent digits ("1e-05", "1.5e+16"); "nan", "inf", "-inf".
inline std::string float_repr(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
  if (value == 0.0) return std::signbit(value) ? "-0.0" : "0.0";

  std::array<char, 64> buf{};
  const auto result =
      std::to_chars(buf.data(), buf.data() + buf.size(), value, std::chars_format::scientific);
  const std::string_view sci(buf.data(), static_cast<size_t>(result.ptr - buf.data()));
  // sci looks like "-d.ddde+XX" or "de-XX".
  const bool negative = sci.front() == '-';
  const size_t e_pos = sci.find('e');
  std::string digits;
  for (char c : sci.substr(negative ? 1 : 0, e_pos - (negative ? 1 : 0))) {
    if (c != '.') digits.push_back(c);
  }
  const int exponent = std::atoi(std::string(sci.substr(e_pos + 1)).c_str());

  std::string out = negative ? "-" : "";
  const int ndigits = static_cast<int>(digits.size());
  if (exponent >= -4 && exponent < 16) {
    if (exponent < 0) {
      out += "0.";
      out.append(static_cast<size_t>(-exponent) - 1, '0');
      out += digits;
    } else if (exponent + 1 >= ndigits) {
      out += digits;
      out.append(static_cast<size_t>(exponent) + 1 - static_cast<size_t>(ndigits), '0');
      out += ".0";
    } else {
      out += digits.substr(0, static_cast<size_t>(exponent) + 1);
      out += '.';
      out += digits.substr(static_cast<size_t>(exponent) + 1);
    }
    return out;
  }
  out += digits.substr(0, 1);
  if (ndigits > 1) {
    out += '.';
    out += digits.substr(1);
  }
  char exp_buf[16];
  std::snprintf(exp_buf, sizeof(exp_buf), "e%c%02d", exponent < 0 ? '-' : '+',
                exponent < 0 ? -exponent : exponent);
  out += exp_buf;
  return out;
}

// f"{value:.{digits}f}": fixed notation with `digits` decimals ("nan", "inf" and "-0.000" as
// Python prints them).
inline std::string fixed(double value, int digits) {
  std::array<char, 512> buf{};
  const int written = std::snprintf(buf.data(), buf.size(), "%.*f", digits, value);
  if (written <= 0 || static_cast<size_t>(written) >= buf.size()) return float_repr(value);
  return std::string(buf.data(), static_cast<size_t>(written));
}

// Python's round(x, ndigits) for floats: the correctly rounded decimal value of the binary
// double (exact ties go to even), returned as the nearest double.
inline double round_half_even(double value, int ndigits) {
  if (!std::isfinite(value)) return value;
  if (ndigits > 300 || ndigits < -300) return value;
  if (ndigits < 0) {
    const double scale = std::pow(10.0, -ndigits);
    return std::nearbyint(value / scale) * scale;
  }
  std::array<char, 512> buf{};
  const int written = std::snprintf(buf.data(), buf.size(), "%.*f", ndigits, value);
  if (written <= 0 || static_cast<size_t>(written) >= buf.size()) return value;
  return std::strtod(buf.data(), nullptr);
}

// numpy.round(x, decimals): scale, round half to even, unscale, in double arithmetic.
inline double numpy_round(double value, int decimals) {
  if (!std::isfinite(value)) return value;
  if (decimals >= 0) {
    const double scale = std::pow(10.0, decimals);
    const double y = value * scale;
    return std::nearbyint(y) / scale;
  }
  const double scale = std::pow(10.0, -decimals);
  return std::nearbyint(value / scale) * scale;
}

// Python's float(text) grammar (strip, sign, digits with '_' separators, fraction, exponent,
// nan/inf/infinity case-insensitively). Returns false when text is not a float literal. The
// digits are converted by std::from_chars (correctly rounded, like Python), strtod only for a
// value beyond double's range (inf or 0, as Python).
inline bool parse_float(std::string_view text, double& out) {
  auto is_space = [](char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
  };
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  if (text.empty()) return false;

  const bool negative = text.front() == '-';
  if (text.front() == '+' || text.front() == '-') text.remove_prefix(1);
  if (text.size() <= 8 && !text.empty() && (text.front() < '0' || text.front() > '9')) {
    char lower[8];
    for (size_t k = 0; k < text.size(); ++k) {
      lower[k] = static_cast<char>(std::tolower(static_cast<unsigned char>(text[k])));
    }
    const std::string_view word(lower, text.size());
    if (word == "nan" || word == "inf" || word == "infinity") {
      out = word == "nan" ? std::nan("") : (negative ? -HUGE_VAL : HUGE_VAL);
      return true;
    }
  }
  // digits [_digits]* [. digits...] [e [sign] digits]
  bool any_digit = false;
  bool prev_digit = false;
  bool seen_dot = false;
  bool seen_exp = false;
  bool exp_digit = false;
  bool separators = false;
  for (size_t k = 0; k < text.size(); ++k) {
    const char c = text[k];
    if (c >= '0' && c <= '9') {
      prev_digit = true;
      if (seen_exp) {
        exp_digit = true;
      } else {
        any_digit = true;
      }
    } else if (c == '_') {
      if (!prev_digit || k + 1 >= text.size() || text[k + 1] < '0' || text[k + 1] > '9') {
        return false;
      }
      prev_digit = false;
      separators = true;
    } else if (c == '.' && !seen_dot && !seen_exp) {
      seen_dot = true;
      prev_digit = false;
    } else if ((c == 'e' || c == 'E') && !seen_exp && any_digit) {
      seen_exp = true;
      prev_digit = false;
      if (k + 1 < text.size() && (text[k + 1] == '+' || text[k + 1] == '-')) ++k;
    } else {
      return false;
    }
  }
  if (!any_digit || (seen_exp && !exp_digit)) return false;
  std::string clean;
  if (separators) {
    for (const char c : text) {
      if (c != '_') clean.push_back(c);
    }
    text = clean;
  }
  double value = 0.0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec == std::errc::result_out_of_range) {
    value = std::strtod(std::string(text).c_str(), nullptr);
  } else if (ec != std::errc() || end != text.data() + text.size()) {
    return false;
  }
  out = negative ? -value : value;
  return true;
}

}  // namespace loupe::py
