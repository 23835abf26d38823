// Python-compatible number formatting: the digits must match what CPython prints.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "loupe/python_format.hpp"

using loupe::py::float_repr;

TEST_CASE("float_repr matches CPython repr(float)", "[python_format]") {
  CHECK(float_repr(0.0) == "0.0");
  CHECK(float_repr(-0.0) == "-0.0");
  CHECK(float_repr(1.0) == "1.0");
  CHECK(float_repr(2.0) == "2.0");
  CHECK(float_repr(0.1) == "0.1");
  CHECK(float_repr(5.3) == "5.3");
  CHECK(float_repr(11.72) == "11.72");
  CHECK(float_repr(0.1 + 0.2) == "0.30000000000000004");
  CHECK(float_repr(1.0 - 0.85) == "0.15000000000000002");
  CHECK(float_repr(33.13133349609375) == "33.13133349609375");
  CHECK(float_repr(0.0001) == "0.0001");
  CHECK(float_repr(0.00001) == "1e-05");
  CHECK(float_repr(1.5e-7) == "1.5e-07");
  CHECK(float_repr(1e16) == "1e+16");
  CHECK(float_repr(1.5e16) == "1.5e+16");
  CHECK(float_repr(123456789012345.0) == "123456789012345.0");
  CHECK(float_repr(1234567890123456.0) == "1234567890123456.0");
  CHECK(float_repr(-2.5) == "-2.5");
  CHECK(float_repr(1e22) == "1e+22");
  CHECK(float_repr(std::numeric_limits<double>::infinity()) == "inf");
  CHECK(float_repr(-std::numeric_limits<double>::infinity()) == "-inf");
  CHECK(float_repr(std::nan("")) == "nan");
  CHECK(float_repr(5e-324) == "5e-324");
  CHECK(float_repr(1.7976931348623157e308) == "1.7976931348623157e+308");
}

TEST_CASE("round_half_even matches Python round(x, n)", "[python_format]") {
  using loupe::py::round_half_even;
  CHECK(round_half_even(2.675, 2) == 2.67);  // binary value is below the tie
  CHECK(round_half_even(0.125, 2) == 0.12);  // exact tie goes to even
  CHECK(round_half_even(0.375, 2) == 0.38);
  CHECK(round_half_even(11.7249999, 2) == 11.72);
  CHECK(round_half_even(4.789499, 3) == 4.789);
  CHECK(round_half_even(-1.005, 2) == -1.0);  // -1.00499999999999989...
  CHECK(round_half_even(2.5, 0) == 2.0);
  CHECK(round_half_even(3.5, 0) == 4.0);
  CHECK(round_half_even(1234.5, -1) == 1230.0);
}

TEST_CASE("numpy_round scales in double arithmetic", "[python_format]") {
  using loupe::py::numpy_round;
  // 2.675 is stored below the tie (Python: 2.67), but 2.675 * 100 is exactly 267.5 in double
  // arithmetic, which rounds half to even: numpy gives 2.68.
  CHECK(numpy_round(2.675, 2) == 2.68);
  // 15.155 is stored just below the tie, but 15.155 * 100 rounds up to exactly 1515.5 in double
  // arithmetic: Python's round() gives 15.15, numpy's rint-based rounding 15.16.
  CHECK(loupe::py::round_half_even(15.155, 2) == 15.15);
  CHECK(numpy_round(15.155, 2) == 15.16);
  CHECK(loupe::py::round_half_even(8.105, 2) == 8.11);
  CHECK(numpy_round(8.105, 2) == 8.1);
}

TEST_CASE("parse_float follows Python float() grammar", "[python_format]") {
  using loupe::py::parse_float;
  double v = 0;
  CHECK((parse_float("1.5", v) && v == 1.5));
  CHECK((parse_float(" -2e3 ", v) && v == -2000.0));
  CHECK((parse_float("1_000.5", v) && v == 1000.5));
  CHECK((parse_float(".5", v) && v == 0.5));
  CHECK((parse_float("5.", v) && v == 5.0));
  CHECK((parse_float("NaN", v) && std::isnan(v)));
  CHECK((parse_float("-Infinity", v) && std::isinf(v) && v < 0));
  CHECK((parse_float("inf", v) && std::isinf(v)));
  CHECK_FALSE(parse_float("", v));
  CHECK_FALSE(parse_float("abc", v));
  CHECK_FALSE(parse_float("1__0", v));
  CHECK_FALSE(parse_float("_1", v));
  CHECK_FALSE(parse_float("1e", v));
  CHECK_FALSE(parse_float("0x10", v));
  CHECK_FALSE(parse_float("1.2.3", v));
  CHECK_FALSE(parse_float("e5", v));
  // Python: float("1e400") == inf, float("-1e-400") == -0.0, float("1_0e1_0") == 1e11.
  CHECK((parse_float("1e400", v) && std::isinf(v) && v > 0));
  CHECK((parse_float("-1e-400", v) && v == 0.0 && std::signbit(v)));
  CHECK((parse_float("1_0e1_0", v) && v == 1e11));
  CHECK((parse_float("+3", v) && v == 3.0));
  CHECK((parse_float("1e+5", v) && v == 1e5));
  CHECK((parse_float("0.1", v) && v == 0.1));
  CHECK((parse_float("-0", v) && v == 0.0 && std::signbit(v)));
  CHECK((parse_float("123456789012345678901234567890", v) && v == 1.2345678901234568e29));
  CHECK_FALSE(parse_float("+-5", v));
  CHECK_FALSE(parse_float("-", v));
  CHECK_FALSE(parse_float("1e_5", v));
  CHECK_FALSE(parse_float("nanx", v));
}
