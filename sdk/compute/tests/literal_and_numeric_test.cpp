#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>

#include "loupe/compute/numeric.hpp"
#include "loupe/compute/py_literal.hpp"
#include "loupe/python_format.hpp"

using loupe::compute::parse_py_literal;

TEST_CASE("compute: Python literals of TraceLens CSV cells parse like ast.literal_eval") {
  const auto dims = parse_py_literal("((4, 3, 224, 224), (768,), (), [1, 2])");
  REQUIRE(dims);
  REQUIRE(dims->items().size() == 4);
  CHECK(dims->items()[0].items()[3].as_int() == 224);
  CHECK(dims->items()[1].items().size() == 1);
  CHECK(dims->items()[1].as_list().is_tuple);
  CHECK(dims->items()[2].items().empty());
  CHECK_FALSE(dims->items()[3].as_list().is_tuple);

  const auto kd = parse_py_literal(
      "[{'name': \"k'1\", 'stream': 0, 'total_duration_us': 3.728, 'ok': True, 'x': None}]");
  REQUIRE(kd);
  const auto& entry = kd->items()[0];
  CHECK(entry.get("name")->as_string() == "k'1");
  CHECK(entry.get("total_duration_us")->as_float() == 3.728);
  CHECK(entry.get("ok")->as_bool());
  CHECK(entry.get("x")->is_none());

  CHECK(parse_py_literal("(5)")->as_int() == 5);         // parentheses, not a tuple
  CHECK(parse_py_literal("(5,)")->items().size() == 1);  // a one-tuple
  CHECK(parse_py_literal("'a\\nb'")->as_string() == "a\nb");
  CHECK(parse_py_literal("(1,2)")->repr() == "(1, 2)");
  CHECK_FALSE(parse_py_literal("not a tuple"));
  CHECK_FALSE(parse_py_literal("((1, 2)"));
  CHECK_FALSE(parse_py_literal(""));
  CHECK_FALSE(parse_py_literal("Truex"));
  // int64 holds TraceLens's shapes; a wider int is refused, not read as a wrong number.
  CHECK(parse_py_literal("9223372036854775807")->as_int() == INT64_MAX);
  CHECK_FALSE(parse_py_literal("{'M': 9223372036854775808}"));
}

TEST_CASE("compute: set displays parse like ast.literal_eval, and '{}' stays a dict") {
  const auto set = parse_py_literal("{3, 'a', (1, 2),}");
  REQUIRE(set);
  REQUIRE(set->is_set());
  CHECK_FALSE(set->is_sequence());
  CHECK_FALSE(set->is_dict());
  REQUIRE(set->as_set().items.size() == 3);
  CHECK(set->as_set().items[0].as_int() == 3);
  CHECK(set->as_set().items[2].as_list().is_tuple);
  CHECK(set->truthy());
  CHECK(set->get("a") == nullptr);
  CHECK(set->repr() == "{3, 'a', (1, 2)}");
  CHECK(parse_py_literal("{1}")->is_set());
  CHECK(parse_py_literal("{}")->is_dict());
  CHECK(parse_py_literal("{'a': 1,}")->get("a")->as_int() == 1);
  CHECK(loupe::compute::PyValue(loupe::compute::PyValue::Set{}).repr() == "set()");
  CHECK_FALSE(loupe::compute::PyValue(loupe::compute::PyValue::Set{}).truthy());
  CHECK_FALSE(parse_py_literal("{1: 2, 3}"));
  CHECK_FALSE(parse_py_literal("{1, 2: 3}"));
  CHECK_FALSE(parse_py_literal("{1, 2"));
  CHECK_FALSE(parse_py_literal("{,}"));
}

TEST_CASE("compute: numpy pairwise sum differs from a left-to-right sum like pandas does") {
  // 0.1 * 10 summed left to right is 0.9999999999999999; numpy's 8-way blocks give 1.0.
  std::vector<double> tenths(10, 0.1);
  double sequential = 0.0;
  for (const double v : tenths) sequential += v;
  CHECK(sequential == 0.9999999999999999);
  CHECK(loupe::compute::numpy_sum(tenths) == 1.0);
  CHECK(loupe::compute::numpy_sum({}) == 0.0);
  CHECK(loupe::compute::numpy_sum({1.5, 2.5}) == 4.0);
}

TEST_CASE(
    "compute: Python sort with reverse=True is stable and keeps NaN where timsort leaves it") {
  // Values checked against CPython's sorted(..., reverse=True): NaN makes comparisons
  // inconsistent, so the result depends on the exact timsort steps.
  const auto sort_desc = [](const std::vector<double>& keys) {
    return loupe::compute::python_sort_order(
        keys.size(), [&](size_t a, size_t b) { return keys[a] < keys[b]; }, true);
  };
  const double nan = std::nan("");
  CHECK(sort_desc({100, nan, 200, 100}) == std::vector<size_t>{0, 1, 2, 3});
  CHECK(sort_desc({15.75, 7.88, 7.88, nan}) == std::vector<size_t>{0, 1, 2, 3});
  CHECK(sort_desc({1, nan, 3, 2, 5}) == std::vector<size_t>{1, 4, 2, 3, 0});
  const std::vector<double> ties{1.31, 5.78, 1.31};
  const auto tie_order = loupe::compute::python_sort_order(
      ties.size(), [&](size_t a, size_t b) { return ties[a] < ties[b]; }, true);
  CHECK(tie_order == std::vector<size_t>{1, 0, 2});
}

TEST_CASE("compute: Python round and numpy round disagree near ties (spec 3.0)") {
  CHECK(loupe::py::round_half_even(161.1335, 3) == 161.133);
  CHECK(loupe::py::numpy_round(161.1335, 3) == 161.134);
  CHECK(loupe::py::round_half_even(6.125, 2) == 6.12);
}
