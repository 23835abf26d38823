// Selector patterns of vendor categories (core/include/loupe/core/util/name_pattern.hpp): the glob
// subset matches whole names, refuses regex-only constructs and malformed patterns with the
// offending offset, and stays fast on patterns that make a backtracking regex explode.
#include <catch2/catch.hpp>

#include <chrono>
#include <string>

#include "loupe/core/util/name_pattern.hpp"

using loupe::core::NamePattern;

namespace {

NamePattern compiled(const std::string& text) {
  std::string error;
  NamePattern p = NamePattern::compile(text, error);
  INFO(text << ": " << error);
  REQUIRE(error.empty());
  return p;
}

std::string compile_error(const std::string& text) {
  std::string error;
  (void)NamePattern::compile(text, error);
  return error;
}

}  // namespace

TEST_CASE("selector patterns match whole names with * ? [...] and |", "[name_pattern]") {
  const auto gemm = compiled("Cijk_*|*gemm*");
  CHECK(gemm.matches("Cijk_Alik_Bljk_BBS_BH_MT128x224x64"));
  CHECK(gemm.matches("sm90_xmma_gemm_bf16bf16_bf16f32"));
  CHECK(gemm.matches("gemm"));
  CHECK_FALSE(gemm.matches("xCijk_"));       // a whole-name match, not a search
  CHECK_FALSE(gemm.matches("GEMM_kernel"));  // case-sensitive
  const auto set = compiled("k[0-9]?_[!x]*");
  CHECK(set.matches("k7a_b"));
  CHECK(set.matches("k12_y"));
  CHECK_FALSE(set.matches("k12_x"));
  CHECK_FALSE(set.matches("ka2_b"));
  const auto escaped = compiled(R"(void at::native::\(anonymous namespace\)::*)");
  CHECK(escaped.matches("void at::native::(anonymous namespace)::elementwise_kernel<128>"));
  CHECK(compiled("a**b").matches("ab"));
  CHECK(compiled("*").matches(""));
  CHECK_FALSE(compiled("?").matches(""));
}

TEST_CASE("selector patterns that do not compile name the problem", "[name_pattern]") {
  CHECK(compile_error("") == "empty pattern (leave the field NULL to match every name)");
  CHECK(compile_error("Cijk_[AB") == "'[' without a closing ']' at offset 5");
  CHECK(compile_error("abc\\") == "'\\' at the end escapes nothing at offset 3");
  CHECK(compile_error("[z-a]") == "reversed range in '[' at offset 0");
  CHECK(compile_error("a||b") == "empty alternative before '|' at offset 2");
  CHECK(compile_error("a|") == "empty alternative after '|'");
  CHECK_THAT(compile_error("(a+)+b"),
             Catch::StartsWith("regex construct '(' at offset 0 is not part of the selector"));
  CHECK_THAT(compile_error("gemm$"), Catch::StartsWith("regex construct '$' at offset 4"));
  CHECK(compile_error(std::string(257, 'a')) == "pattern of 257 characters (at most 256)");
  CHECK(compile_error("a\tb") == "control character at offset 1");
  CHECK(compile_error(std::string(256, 'a')).empty());
}

TEST_CASE("a pattern that makes a backtracking matcher explode is matched in linear steps",
          "[name_pattern]") {
  // `(a*)*b`-like: 60 stars between a's against 20,000 a's without the final b. A backtracking
  // matcher tries exponentially many splits; this one moves each star forward only.
  std::string text;
  for (int i = 0; i < 60; ++i) text += "*a";
  text += "*b";
  const auto p = compiled(text);
  const std::string name(20000, 'a');
  const auto start = std::chrono::steady_clock::now();
  CHECK_FALSE(p.matches(name));
  CHECK(p.matches(name + "b"));
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::steady_clock::now() - start)
                      .count();
  CHECK(ms < 2000);
}
