// The §1.6 shape key (spec docs/contracts/fusion.md T11 vectors), shared by prepare and the fusion plugin.
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <string_view>

#include "loupe/compute/shape_key.hpp"
#include "loupe/json_value.hpp"

using loupe::Json;
using loupe::compute::first_shape_key;

namespace {

Json array_of(std::initializer_list<Json> items) {
  Json out = Json::array();
  for (const auto& item : items) out.push_back(item);
  return out;
}

}  // namespace

TEST_CASE("compute: shape key of an Input Dims literal (T11)") {
  CHECK(first_shape_key("(((4, 4), (4, 4)), ())") == "((4,4),(4,4))");  // Q8: normalised
  CHECK(first_shape_key("((), (3,))") == "()");  // an empty tuple is a key, not none
  CHECK(first_shape_key("[[2,3]]") == "(2,3)");
  CHECK(first_shape_key("((8944, 1024), (1024, 2816))") == "(8944,1024)");
  CHECK(first_shape_key(std::string("((5,), [6])")) == "(5)");  // no one-tuple comma
  CHECK_FALSE(first_shape_key("").has_value());
  CHECK_FALSE(first_shape_key("garbage").has_value());
  CHECK_FALSE(first_shape_key("[]").has_value());
  CHECK_FALSE(first_shape_key("[5, 6]").has_value());
  CHECK_FALSE(first_shape_key("(({'a': 1}, 2)").has_value());  // unbalanced
  CHECK_FALSE(first_shape_key("{(2, 3)}").has_value());        // a set is not a sequence
  CHECK_FALSE(first_shape_key("(None, (2, 3))").has_value());
}

TEST_CASE("compute: shape keys are equal exactly when Python's tuple keys are") {
  // 2 == 2.0 == True in Python, so these are one dict key.
  CHECK(first_shape_key("((2, 1), ())") == first_shape_key("((2.0, True), ())"));
  CHECK(first_shape_key("((-0.0, 1e3),)") == "(0,1000)");
  CHECK(first_shape_key("((2.5, None, 'a\\'b'),)") == "(2.5,None,\"a'b\")");
  CHECK(first_shape_key("(('x,y',),)") != first_shape_key("(('x', 'y'),)"));
  // Later arguments need only be valid literals: a dict or set there does not void the key.
  CHECK(first_shape_key("((2, 3), {'k': 1}, {4, 5})") == "(2,3)");
  // Inside the first element they are normalised like nested lists (Python: TypeError).
  CHECK(first_shape_key("(([1], {'k': 2}, {3}),)") == "((1),{'k':2},{3})");
  // A bare top-level tuple is a tuple, as for literal_eval.
  CHECK(first_shape_key("(2, 3), (4,)") == "(2,3)");
}

TEST_CASE("compute: shape key of an input_dims JSON value") {
  const Json dims = array_of({array_of({2, 3}), array_of({4})});
  CHECK(first_shape_key(dims) == "(2,3)");
  CHECK(first_shape_key(Json(std::string_view("[[2,3],[4]]"))) == "(2,3)");  // string: literal
  // Q8: a TensorList first argument gets a key instead of TraceLens's crash.
  const Json nested = array_of({array_of({array_of({4, 4}), array_of({4, 4})}), Json::array()});
  CHECK(first_shape_key(nested) == "((4,4),(4,4))");
  CHECK(first_shape_key(nested) == first_shape_key("[[[4, 4], [4, 4]], []]"));
  // JSON numbers compare like Python's: 8.0 and true match a literal's 8 and 1.
  CHECK(first_shape_key(array_of({array_of({8.0, true})})) == first_shape_key("((8, 1),)"));
  CHECK(first_shape_key(array_of({array_of({"f32", nullptr})})) == "('f32',None)");
  CHECK(first_shape_key(array_of({Json::array()})) == "()");
  // Every falsy value (and every non-sequence) is none.
  CHECK_FALSE(first_shape_key(Json()).has_value());
  CHECK_FALSE(first_shape_key(Json(false)).has_value());
  CHECK_FALSE(first_shape_key(Json(0)).has_value());
  CHECK_FALSE(first_shape_key(Json(std::string_view(""))).has_value());
  CHECK_FALSE(first_shape_key(Json::array()).has_value());
  CHECK_FALSE(first_shape_key(Json::object()).has_value());
  CHECK_FALSE(first_shape_key(Json(7)).has_value());
  CHECK_FALSE(first_shape_key(array_of({5, 6})).has_value());
}
