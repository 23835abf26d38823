// "Did you mean": edit distance with adjacent swaps, and when a name is near enough.
#include <catch2/catch.hpp>

#include "loupe/core/util/closest_name.hpp"

using loupe::core::closest_name;
using loupe::core::edit_distance;

TEST_CASE("edit distance counts insertions, deletions, substitutions and swaps", "[cli]") {
  CHECK(edit_distance("analyse", "analyze") == 1);
  CHECK(edit_distance("platfrom", "platform") == 1);  // one swap, not two substitutions
  CHECK(edit_distance("trace", "trace2") == 1);
  CHECK(edit_distance("H100", "h100") == 0);  // case ignored
  CHECK(edit_distance("", "abc") == 3);
  CHECK(edit_distance("kitten", "sitting") == 3);
  CHECK(edit_distance("ca", "abc") == 3);  // optimal string alignment: no edit of a swapped pair
}

TEST_CASE("the closest name is offered only when it could be a typo", "[cli]") {
  const std::vector<std::string> commands = {"analyze", "diff-findings", "help",
                                             "inspect", "plugins",       "validate"};
  CHECK(closest_name("analyse", commands) == std::optional<std::string>("analyze"));
  CHECK(closest_name("inspcet", commands) == std::optional<std::string>("inspect"));
  CHECK(closest_name("plugin", commands) == std::optional<std::string>("plugins"));
  CHECK_FALSE(closest_name("frobnicate", commands));
  CHECK_FALSE(closest_name("x", commands));
  // A tie between two candidates suggests neither.
  CHECK_FALSE(closest_name("trace3", {"trace1", "trace2"}));
  const std::vector<std::string> options = {"platform", "plugin-dir", "plugin-timeout",
                                            "trace",    "trace2",     "arch"};
  CHECK(closest_name("platfrom", options) == std::optional<std::string>("platform"));
  CHECK(closest_name("plugin-dirs", options) == std::optional<std::string>("plugin-dir"));
  CHECK(closest_name("ARCH", options) == std::optional<std::string>("arch"));
}
