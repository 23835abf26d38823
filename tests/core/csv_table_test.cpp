// RFC 4180 parsing with typed cells.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <utility>

#include "loupe/core/model/csv_table.hpp"

using loupe::core::CsvCell;
using loupe::core::parse_csv;

TEST_CASE("csv: quoted fields keep commas, quotes and newlines", "[csv]") {
  const auto t = parse_csv(
      "name,args,Kernel Time (\xC2\xB5s)_sum\r\n"
      "aten::mm,\"((32, 64), (64, 128))\",12.5\r\n"
      "\"say \"\"hi\"\"\",\"line1\nline2\",\r\n");
  REQUIRE(t.column_count() == 3);
  REQUIRE(t.row_count() == 2);
  CHECK(t.column_name(2) == "Kernel Time (\xC2\xB5s)_sum");
  CHECK(t.cell(0, 1).text == "((32, 64), (64, 128))");
  CHECK(t.cell(0, 1).kind == CsvCell::Kind::Text);
  CHECK(t.cell(0, 2).kind == CsvCell::Kind::Number);
  CHECK(t.cell(0, 2).number == 12.5);
  CHECK(t.cell(1, 0).text == "say \"hi\"");
  CHECK(t.cell(1, 1).text == "line1\nline2");
  CHECK(t.cell(1, 2).kind == CsvCell::Kind::Empty);
}

TEST_CASE("csv: numbers parse like Python float()", "[csv]") {
  const auto t = parse_csv("a,b,c,d,e\n1e-3,nan,-inf,True,007\n");
  CHECK(t.cell(0, 0).number == 0.001);
  CHECK(std::isnan(t.cell(0, 1).number));
  CHECK(t.cell(0, 1).kind == CsvCell::Kind::Number);
  CHECK(std::isinf(t.cell(0, 2).number));
  CHECK(t.cell(0, 3).kind == CsvCell::Kind::Text);
  CHECK(t.cell(0, 4).number == 7.0);
}

TEST_CASE("csv: BOM, blank lines, short rows, missing final newline", "[csv]") {
  const auto t = parse_csv("\xEF\xBB\xBFx,y\n\n1\n2,3");
  REQUIRE(t.column_name(0) == "x");
  REQUIRE(t.row_count() == 2);
  CHECK(t.cell(0, 1).kind == CsvCell::Kind::Empty);
  CHECK(t.cell(1, 1).number == 3.0);
}

TEST_CASE("csv: an empty file is a table without columns", "[csv]") {
  CHECK(parse_csv("").column_count() == 0);
  CHECK(parse_csv("\n").row_count() == 0);
}

TEST_CASE("csv: malformed input names the line", "[csv]") {
  CHECK_THROWS_WITH(parse_csv("a,b\n1,\"open\n"),
                    Catch::Contains("unterminated quoted field") && Catch::Contains("line 2"));
  CHECK_THROWS_WITH(parse_csv("a,b\n1,2\n1,2,3\n"),
                    Catch::Contains("line 3") && Catch::Contains("3 fields"));
}

TEST_CASE("csv: columns are found by name, the first of duplicates", "[csv]") {
  const auto t = parse_csv("name,op category,name\nx,GEMM,y\n");
  CHECK(t.find_column("op category") == 1u);
  CHECK(t.find_column("name") == 0u);
  CHECK_FALSE(t.find_column("Op Category").has_value());
}

TEST_CASE("csv: a built table keeps NUL-terminated texts through growth, copies and moves",
          "[csv]") {
  loupe::core::CsvTable t({"kind", "text"});
  const std::string long_text(3u << 20, 'x');  // longer than a text block
  for (int i = 0; i < 20000; ++i) {
    t.add_number(i, std::to_string(i));
    t.add_text(i == 7 ? std::string_view(long_text) : std::string_view("row"));
  }
  t.add_empty();
  t.add_text("");
  REQUIRE(t.row_count() == 20001);
  const auto check = [&](const loupe::core::CsvTable& table) {
    CHECK(table.cell(19999, 0).text == "19999");
    CHECK(table.cell(19999, 0).number == 19999.0);
    CHECK(table.cell(7, 1).text.size() == long_text.size());
    CHECK(table.cell(7, 1).text.data()[long_text.size()] == '\0');
    CHECK(table.cell(123, 1).text.data()[3] == '\0');
    CHECK(table.cell(20000, 0).kind == CsvCell::Kind::Empty);
    CHECK(table.cell(20000, 1).kind == CsvCell::Kind::Text);
    CHECK(table.cell(20000, 1).text.empty());
    CHECK(table.cell(20000, 1).text.data()[0] == '\0');
  };
  check(t);
  const loupe::core::CsvTable copy = t;  // NOLINT(performance-unnecessary-copy-initialization)
  check(copy);
  CHECK(copy.cell(5, 1).text.data() != t.cell(5, 1).text.data());
  const loupe::core::CsvTable moved = std::move(t);
  check(moved);
}

TEST_CASE("csv: equal texts of a repeating column share one record; every size round-trips",
          "[csv]") {
  loupe::core::CsvTable t({"id", "name", "stack"});
  const std::string stack(300, 's');
  for (int i = 0; i < 5000; ++i) {
    t.add_number(i, std::to_string(i));
    t.add_text(i % 2 == 0 ? "aten::mm" : "aten::add");
    t.add_text(stack + std::to_string(i % 3));
  }
  REQUIRE(t.row_count() == 5000);
  // Repeated texts point at one record; the same text of another kind is its own cell.
  CHECK(t.cell(0, 1).text.data() == t.cell(4998, 1).text.data());
  CHECK(t.cell(1, 2).text.data() == t.cell(4999, 2).text.data());
  CHECK(t.cell(4999, 2).text == stack + "1");
  CHECK(t.cell(4999, 0).text == "4999");
  CHECK(t.cell(4999, 0).number == 4999.0);
  t.add_text("7");
  t.add_number(7.0, "7");
  t.add_text("aten::mm");
  CHECK(t.cell(5000, 0).kind == CsvCell::Kind::Text);
  CHECK(t.cell(5000, 1).kind == CsvCell::Kind::Number);
  CHECK(t.cell(5000, 1).number == 7.0);
  CHECK(t.cell(5000, 2).text.data() == t.cell(0, 1).text.data());

  // Texts around the one-byte size limit of a record, each NUL-terminated.
  loupe::core::CsvTable sizes({"text"});
  for (size_t n = 0; n < 70; ++n) sizes.add_text(std::string(n, static_cast<char>('a' + n % 26)));
  sizes.add_text(std::string(1u << 16, 'z'));
  for (size_t n = 0; n < 70; ++n) {
    const auto cell = sizes.cell(n, 0);
    CHECK(cell.text == std::string(n, static_cast<char>('a' + n % 26)));
    CHECK(cell.text.data()[n] == '\0');
  }
  CHECK(sizes.cell(70, 0).text.size() == (1u << 16));
  CHECK(sizes.cell(70, 0).kind == CsvCell::Kind::Text);
}
