// pandas to_csv cells and Python repr of the values TraceLens writes.
#include <catch2/catch.hpp>

#include <cmath>

#include "json_text.hpp"
#include "loupe/core/prepare/pandas_csv.hpp"
#include "loupe/core/prepare/py_repr.hpp"

namespace lp = loupe::core::prepare;

TEST_CASE("CSV cells: floats by repr, ints, NaN and None empty, bools", "[prepare][ops_tables]") {
  CHECK(lp::CsvValue::real(110.58902994791667).str() == "110.58902994791667");
  CHECK(lp::CsvValue::real(480.0).str() == "480.0");
  CHECK(lp::CsvValue::real(1e-05).str() == "1e-05");
  CHECK(lp::CsvValue::real(1e16).str() == "1e+16");
  CHECK(lp::CsvValue::real(std::nan("")).str().empty());
  CHECK(lp::CsvValue::number({10890.0, true}).str() == "10890");
  CHECK(lp::CsvValue::number({10890.0, false}).str() == "10890.0");
  CHECK(lp::CsvValue::boolean(true).str() == "True");
  CHECK(lp::CsvValue::empty().str().empty());
}

TEST_CASE("CSV quoting is QUOTE_MINIMAL with doubled quotes", "[prepare][ops_tables]") {
  CHECK(lp::csv_quote("aten::mm") == "aten::mm");
  CHECK(lp::csv_quote("((8944, 1024), (1024, 2816))") == "\"((8944, 1024), (1024, 2816))\"");
  CHECK(lp::csv_quote("say \"hi\"") == "\"say \"\"hi\"\"\"");
  CHECK(lp::csv_quote("two\nlines") == "\"two\nlines\"");
  lp::PandasCsvWriter csv({"a", "b,c"});
  csv.add_row({lp::CsvValue::integer(1), lp::CsvValue::text("x,y")});
  CHECK(csv.text() == "a,\"b,c\"\n1,\"x,y\"\n");
  CHECK_THROWS(csv.add_row({lp::CsvValue::integer(1)}));
}

TEST_CASE("Python repr of strings picks quotes and escapes like CPython", "[prepare][ops_tables]") {
  CHECK(lp::py_str_repr("attn_fwd") == "'attn_fwd'");
  CHECK(lp::py_str_repr("it's") == "\"it's\"");
  CHECK(lp::py_str_repr("it's \"x\"") == "'it\\'s \"x\"'");
  CHECK(lp::py_str_repr("a\\b\n") == "'a\\\\b\\n'");
  CHECK(lp::py_str_repr(std::string("\x01", 1)) == "'\\x01'");
  CHECK(lp::py_str_repr("\xc2\xb5s") == "'\xc2\xb5s'");  // µ is printable: kept
}

TEST_CASE("trace args become tuples like TraceLens's list_to_tuple", "[prepare][ops_tables]") {
  const auto str_of = [](std::string_view json) {
    return lp::py_json_str(lp::parse_json_text(json), true);
  };
  CHECK(str_of("[[512],[141,512],[],[]]") == "((512,), (141, 512), (), ())");
  CHECK(str_of("[\"c10::BFloat16\",\"\",\"Scalar\"]") == "('c10::BFloat16', '', 'Scalar')");
  CHECK(str_of("[\"\",\"0.\",\"True\"]") == "('', '0.', 'True')");
  CHECK(str_of("[1.5,true,null]") == "(1.5, True, None)");
  CHECK(str_of("\"plain\"") == "plain");
  CHECK(str_of("[{\"k\":[1,2]}]") == "({'k': [1, 2]},)");
  CHECK(lp::py_prefix("h\xc3\xa9llo", 2) == "h\xc3\xa9");
  CHECK(lp::py_len("h\xc3\xa9llo") == 5);
}
