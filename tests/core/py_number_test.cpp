// The SDK's PyNumber: Python's int/float arithmetic and the spelling json.dump gives each.
#include <catch2/catch.hpp>

#include "loupe/json_value.hpp"
#include "loupe/py_number.hpp"

using loupe::Json;
using loupe::PyNumber;

TEST_CASE("PyNumber keeps int + int an int until a float joins", "[py_number]") {
  const PyNumber sum = PyNumber::integer(200) + PyNumber::integer(55);
  CHECK(sum.is_int());
  CHECK(sum.int_value() == 255);
  CHECK(sum.str() == "255");
  CHECK(loupe::dump_python_json(sum.to_json(), -1) == "255");
  PyNumber total;
  total += PyNumber::integer(2);
  total += PyNumber::real(0.5);
  CHECK_FALSE(total.is_int());
  CHECK(total.str() == "2.5");
  CHECK(loupe::dump_python_json((PyNumber::integer(3) + PyNumber::real(0.0)).to_json(), -1) ==
        "3.0");
}

TEST_CASE("PyNumber reads JSON numbers as Python does and rounds like round()", "[py_number]") {
  CHECK(PyNumber::from_json(Json(true))->int_value() == 1);
  CHECK(PyNumber::from_json(Json(7))->is_int());
  CHECK_FALSE(PyNumber::from_json(Json(7.0))->is_int());
  CHECK_FALSE(PyNumber::from_json(Json("7")).has_value());
  CHECK_FALSE(PyNumber::from_json(Json(nullptr)).has_value());
  CHECK(loupe::py_round(PyNumber::integer(12345), 2).str() == "12345");
  CHECK(loupe::py_round(PyNumber::real(2.675), 2).str() == "2.67");  // the binary value
  CHECK(loupe::py_round(PyNumber::real(0.125), 2).str() == "0.12");  // half to even
}
