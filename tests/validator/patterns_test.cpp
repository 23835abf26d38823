// Hand-coded Appendix-A regexes (expected values checked against Python 3.11 `re`).
#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

#include "findings_patterns.hpp"
#include "marker_patterns.hpp"

using namespace loupe::core::validate_detail;

TEST_CASE("P heading regex ^### .*?P(\\d+)\\s*:", "[validator][patterns]") {
  CHECK(count_p_headings("### P1: Title") == 1);
  CHECK(count_p_headings("### P1\n: split over lines") == 1);  // \s* spans the newline
  CHECK(count_p_headings("### P6\n\n:") == 1);
  CHECK(count_p_headings("### \xf0\x9f\x94\xb4 System P2: icon and words before P") == 1);
  CHECK(count_p_headings("### P\u0661: Arabic-Indic digit") == 1);  // Unicode \d
  CHECK(count_p_headings("### x P1 y P2 : later P on the line") == 1);
  CHECK(count_p_headings("###P1: no space") == 0);
  CHECK(count_p_headings(" ### P1: indented") == 0);
  CHECK(count_p_headings("#### P1: four hashes") == 0);
  CHECK(count_p_headings("### p1: lowercase") == 0);
  CHECK(count_p_headings("### P<N>: placeholder") == 0);
  CHECK(count_p_headings("### P1 no colon\n: next line is not reached by .*?") == 0);
  CHECK(count_p_headings("### P1:\n### P2:\ntext ### P3:\n### P4:") == 3);
  // `^` matches at the start of a slice even mid-line.
  CHECK(count_p_headings(std::string_view("x### P1:").substr(1)) == 1);
}

TEST_CASE("reasoning-candidate regex", "[validator][patterns]") {
  const std::string text =
      "<!-- reasoning-candidate tier=compute rank=1 -->\n"
      "<!--reasoning-candidate tier=system rank=2 -->\n"
      "<!-- reasoning-candidate\n  tier=System\trank=3-->\n"
      "<!-- reasoning-candidate rank=4 tier=system -->\n"
      "<!-- reasoning-candidate tier=\"system\" rank=5 -->\n"
      "<!-- reasoning-candidate tier=fusion rank=6 extra=1 -->\n"
      "<!-- reasoning-candidate tier=\u00e9t\u00e9 rank=\u0667 -->\n";
  const auto matches = find_candidates(text);
  REQUIRE(matches.size() == 3);
  CHECK(matches[0].tier == "compute");
  CHECK(matches[0].rank == "1");
  CHECK(matches[1].tier == "System");
  CHECK(matches[1].rank == "3");
  CHECK(matches[2].tier == "\u00e9t\u00e9");
  CHECK(matches[2].rank == "\u0667");
  CHECK(matches[0].matched_text(text) == "<!-- reasoning-candidate tier=compute rank=1 -->");
  const auto first = search_candidate("x <!-- reasoning-candidate tier=a rank=9 -->");
  REQUIRE(first);
  CHECK(first->begin == 2);
  CHECK_FALSE(search_candidate("<!-- reasoning-candidate tier=a rank=9 ->"));
}

TEST_CASE("sentinel search is case-insensitive with literal single spaces",
          "[validator][patterns]") {
  CHECK(contains_sentinel("Impact estimate is Not Quantifiable From Trace Data."));
  CHECK(contains_sentinel("NOT QUANT\u0130FIABLE FROM TRACE DATA"));  // re.IGNORECASE: I-dot
  CHECK(contains_sentinel("not quant\u0131fiable from trace data"));  // dotless i
  CHECK_FALSE(contains_sentinel("not quantifiable from\ntrace data"));
  CHECK_FALSE(contains_sentinel("not quantifiable  from trace data"));
}

TEST_CASE("impact-begin / impact-end markers", "[validator][patterns]") {
  const std::string text =
      "<!-- impact-begin kind=p_item low=1 mid=2 high=3.0-->\n"
      "<!--impact-begin kind=x-->\n"
      "<!-- impact-begin-->\n"
      "<!-- impact-begin kind=a->b -->\n"
      "<!-- impact-begin\nkind=detail_estimate\nlow=1 high=2\n-->\n"
      "<!-- impact-end --><!--impact-end--><!-- impact-end x -->";
  const auto begins = find_begin_markers(text);
  REQUIRE(begins.size() == 3);
  CHECK(begins[0].attributes == "kind=p_item low=1 mid=2 high=3.0");
  CHECK(begins[1].attributes == "kind=x");
  CHECK(begins[2].attributes == "kind=detail_estimate\nlow=1 high=2\n");
  CHECK(count_end_markers(text) == 2);
}

TEST_CASE("marker attribute parsing (Q-42)", "[validator][patterns]") {
  CHECK(find_kind("kind=p_item low=1") == std::string_view("p_item"));
  CHECK_FALSE(find_kind("kind=\"p_item\" low=1"));
  CHECK_FALSE(find_kind("xkind=a my_kind=b"));
  CHECK(find_kind("xkind=a my_kind=b kind=\"c\" kind=d kind=e") == std::string_view("d"));
  CHECK(find_kind("data-kind=top_ops") == std::string_view("top_ops"));

  using Pairs = std::vector<std::pair<std::string_view, std::string_view>>;
  CHECK(find_attributes("data-low=1 low= mid=2 a=b=c  kind=x kind=y \u00e9=1 _k=\"q\" x=\u00e9") ==
        Pairs{{"low", "1"},
              {"mid", "2"},
              {"a", "b=c"},
              {"kind", "x"},
              {"kind", "y"},
              {"\u00e9", "1"},
              {"_k", "\"q\""},
              {"x", "\u00e9"}});
  CHECK(find_attributes("low=1,mid=2") == Pairs{{"low", "1,mid=2"}});
}
