// Python `str` semantics (spec §0.2).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "python_text.hpp"
#include "utf8.hpp"

using namespace loupe::core::validate_detail;

namespace {
std::vector<std::string> as_strings(const std::vector<std::string_view>& views) {
  return {views.begin(), views.end()};
}
}  // namespace

TEST_CASE("normalize_newlines applies universal newlines", "[validator][python_text]") {
  CHECK(normalize_newlines("a\r\nb\rc\n\r\n") == "a\nb\nc\n\n");
  CHECK(normalize_newlines("\r") == "\n");
}

TEST_CASE("split_lines follows str.splitlines", "[validator][python_text]") {
  CHECK(split_lines("").empty());
  CHECK(as_strings(split_lines("a\n")) == std::vector<std::string>{"a"});
  CHECK(as_strings(split_lines("a\n\n")) == std::vector<std::string>{"a", ""});
  CHECK(as_strings(split_lines("\n")) == std::vector<std::string>{""});
  // \x85, \u2028, \v, \x1c, \r\n and \n are all separators; the final one adds no line.
  CHECK(as_strings(split_lines("a\u0085b\u2028c\vd\x1c"
                               "e\r\nf\n")) ==
        std::vector<std::string>{"a", "b", "c", "d", "e", "f"});
  CHECK(as_strings(split_lines("x\u2029y\fz\x1d\x1e")) ==
        std::vector<std::string>{"x", "y", "z", ""});
  // \x1f and U+00A0 are whitespace but not line separators.
  CHECK(as_strings(split_lines("a\x1f"
                               "b\u00a0c")) == std::vector<std::string>{"a\x1f"
                                                                        "b\u00a0c"});
}

TEST_CASE("strip uses the str.isspace set", "[validator][python_text]") {
  CHECK(strip(" \t\n\v\f\r\x1c\x1d\x1e\x1fx\u0085\u00a0\u1680\u2000\u200a\u2028\u2029\u202f"
              "\u205f\u3000") == "x");
  // U+200B (zero width space) and U+FEFF are not whitespace for Python.
  CHECK(strip("\u200bx\ufeff") == "\u200bx\ufeff");
  CHECK(lstrip("  a  ") == "a  ");
  CHECK(rstrip("  a  ") == "  a");
  CHECK(strip("   ").empty());
  CHECK(strip_char("||a|b||", '|') == "a|b");
  CHECK(strip_char("|||", '|').empty());
}

TEST_CASE("split_on keeps empty pieces like str.split", "[validator][python_text]") {
  CHECK(as_strings(split_on("a||b|", '|')) == std::vector<std::string>{"a", "", "b", ""});
  CHECK(as_strings(split_on("", '|')) == std::vector<std::string>{""});
}

TEST_CASE("lower uses full Unicode case mapping", "[validator][python_text]") {
  CHECK(lower("CoMPute") == "compute");
  CHECK(lower("\u0130K") == "i\u0307k");    // dotted capital I -> i + combining dot
  CHECK(lower("\u212Aernel") == "kernel");  // Kelvin sign
  CHECK(lower("\u00C9T\u00C9") == "\u00e9t\u00e9");
}

TEST_CASE("repr matches Python repr(str)", "[validator][python_text]") {
  CHECK(repr("Args (T1)") == "'Args (T1)'");
  CHECK(repr("it's") == "\"it's\"");
  CHECK(repr("a\"b'c") == "'a\"b\\'c'");
  CHECK(repr(std::string("\x00\u200b\u00e9\U0001F600\U000E0001\\", 15)) ==
        "'\\x00\\u200b\u00e9\U0001F600\\U000e0001\\\\'");
  CHECK(repr("\x7f\u00a0\t\n\r") == "'\\x7f\\xa0\\t\\n\\r'");
  CHECK(repr_list({}) == "[]");
  CHECK(repr_list({"Operation", "%E2E", ""}) == "['Operation', '%E2E', '']");
}

TEST_CASE("replace_all replaces every occurrence", "[validator][python_text]") {
  CHECK(replace_all("a_findings.md_findings.md", "_findings.md", "") == "a");
  CHECK(replace_all("gemm.md", "_findings.md", "") == "gemm.md");
}

TEST_CASE("UTF-8 validation is strict", "[validator][utf8]") {
  CHECK(is_valid_utf8("plain \u2014 \U0001F600"));
  CHECK_FALSE(is_valid_utf8("\xff"));
  CHECK_FALSE(is_valid_utf8("\xc0\xaf"));          // overlong
  CHECK_FALSE(is_valid_utf8("\xed\xa0\x80"));      // surrogate
  CHECK_FALSE(is_valid_utf8("\xf4\x90\x80\x80"));  // > U+10FFFF
  CHECK_FALSE(is_valid_utf8("\xe2\x80"));          // truncated
}
