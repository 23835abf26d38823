// The analysis.md validator against TraceLens's validate_report: the corpus in
// tests/data/report_cases (good and broken reports, tests/tools/make_report_cases.py) with the
// verdicts TraceLens's own code gave (expected.json). Without the pack, Loupe's port must give
// the recorded verdicts; with it, TraceLens's code is run again to prove they are its own.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <rapidjson/document.h>
#include <catch2/catch.hpp>

#include "cli_runner.hpp"
#include "loupe/core/validate/validator.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMinimumCases = 45;

fs::path corpus_dir() { return loupe::test::bundled_data_dir() / "report_cases"; }

rapidjson::Document parse_file(const fs::path& path) {
  rapidjson::Document doc;
  const std::string text = loupe::test::read_text(path);
  doc.Parse(text.c_str());
  REQUIRE_FALSE(doc.HasParseError());
  return doc;
}

std::optional<loupe::core::Scope> scope_of(const rapidjson::Value& c) {
  const auto& s = c["scope"];
  if (s.IsNull()) return std::nullopt;
  return std::string(s.GetString()) == "comparative" ? loupe::core::Scope::Comparative
                                                     : loupe::core::Scope::Standalone;
}

std::vector<std::string> errors_of(const rapidjson::Value& verdict) {
  std::vector<std::string> errors;
  for (const auto& e : verdict["errors"].GetArray()) errors.emplace_back(e.GetString());
  return errors;
}

}  // namespace

TEST_CASE("the report validator gives TraceLens's verdict on every corpus case", "[report]") {
  const auto cases = parse_file(corpus_dir() / "cases.json");
  const auto expected = parse_file(corpus_dir() / "expected.json");
  REQUIRE(cases.MemberCount() >= kMinimumCases);
  REQUIRE(expected.MemberCount() == cases.MemberCount());
  std::size_t passing = 0;
  std::size_t failing = 0;
  std::size_t raising = 0;
  for (const auto& c : cases.GetObject()) {
    const std::string name = c.name.GetString();
    INFO("case " << name << ": " << c.value["description"].GetString());
    REQUIRE(expected.HasMember(name.c_str()));
    const auto& verdict = expected[name.c_str()];
    const auto result = loupe::core::validate_report(corpus_dir() / name, scope_of(c.value));
    if (verdict.HasMember("exception")) {
      CHECK(result.io_error);
      ++raising;
      continue;
    }
    CHECK_FALSE(result.io_error);
    CHECK(result.passed == verdict["passed"].GetBool());
    CHECK(result.errors == errors_of(verdict));
    (verdict["passed"].GetBool() ? passing : failing) += 1;
  }
  // The corpus covers both verdicts and the inputs where TraceLens raises.
  CHECK(passing >= 10);
  CHECK(failing >= 30);
  CHECK(raising >= 1);
}

TEST_CASE("the report validator names what it checks in TraceLens's words", "[report]") {
  // A spot check independent of expected.json: the R3 message of one case, written out.
  const auto result = loupe::core::validate_report(corpus_dir() / "r3_value_mismatch",
                                                   loupe::core::Scope::Standalone);
  REQUIRE_FALSE(result.passed);
  REQUIRE(result.errors == std::vector<std::string>{
                               "R3: P-item marker #2 mid=0.92 != findings[1].impact_score=0.82"});
}

namespace {

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("tens of thousands of unmatched top_ops markers: the same verdict, one linear pass",
          "[report]") {
  // The top_ops block was looked for with one end-marker search per begin marker, each to the
  // end of the file when none followed (60,000 markers: over a minute). The verdicts below are
  // the regex's: the first begin marker that has an end marker after it gives the block.
  const fs::path base = corpus_dir() / "r4_top_ops_rows";
  const std::string report = loupe::test::read_text(base / "analysis.md");
  const std::string own_block = "<!-- impact-begin kind=top_ops -->";
  REQUIRE(occurrences(report, own_block) == 1);
  const std::string r4 =
      "R4: Top Operations table has 2 data rows but priority_data.json::"
      "priorities has 3 entries";
  const auto repeat = [](const std::string& s, std::size_t n) {
    std::string out;
    for (std::size_t i = 0; i < n; ++i) out += s;
    return out;
  };
  struct Variant {
    const char* name;
    std::string text;
    bool r4_expected;
    bool passes = false;
  };
  std::string without_block = report;
  without_block.replace(without_block.find(own_block), own_block.size(), "<!-- note -->");
  const std::vector<Variant> variants = {
      // After the report's own block: that block is still the one checked.
      {"closed begins after", report + repeat(own_block + "\n", 60000), true},
      // No block before them: none has an end marker after it, so there is no block to check.
      {"closed begins, no block", without_block + repeat(own_block + "\n", 60000), false},
      {"begins without '>'", without_block + repeat("<!-- impact-begin kind=top_ops\n", 60000),
       false},
      {"begins sharing one '-->'",
       without_block + repeat("<!-- impact-begin kind=top_ops <!-- impact-begin x ", 30000) +
           "-->\n",
       false, true},  // one begin marker (up to the '-->') for the one end: nothing to report
      // Begins before the block whose '-->' is the block's: the first of them opens the block.
      {"begins sharing the block's '-->'",
       repeat("<!-- impact-begin x kind=top_ops ", 30000) + report, true},
  };
  std::size_t checked = 0;
  for (const Variant& v : variants) {
    INFO(v.name);
    loupe::test::TempDir tmp;
    loupe::test::copy_tree(base, tmp.path() / "case");
    loupe::test::write_text(tmp.path() / "case" / "analysis.md", v.text);
    const auto result =
        loupe::core::validate_report(tmp.path() / "case", loupe::core::Scope::Standalone);
    CHECK_FALSE(result.io_error);
    CHECK(result.passed == v.passes);
    const bool has_r4 =
        std::find(result.errors.begin(), result.errors.end(), r4) != result.errors.end();
    CHECK(has_r4 == v.r4_expected);
    CHECK(result.errors.size() <= 4);  // one pairing error, not one per marker
    ++checked;
  }
  CHECK(checked == 5);
}

TEST_CASE("the recorded verdicts are what TraceLens's validate_report returns", "[report][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  const fs::path harness =
      fs::path(LOUPE_TESTS_SOURCE_DIR) / "tools" / "tracelens_validate_report.py";
  const auto cases = parse_file(corpus_dir() / "cases.json");
  const auto expected = parse_file(corpus_dir() / "expected.json");
  std::size_t compared = 0;
  for (const auto& c : cases.GetObject()) {
    const std::string name = c.name.GetString();
    INFO("case " << name);
    const auto& scope = c.value["scope"];
    const auto run = loupe::test::run_process(
        "/usr/bin/python3",
        {harness.string(), (shared / "reference" / "tracelens").string(),
         scope.IsNull() ? "none" : scope.GetString(), (corpus_dir() / name).string()});
    REQUIRE(run.exit_code == 0);
    rapidjson::Document got;
    got.Parse(run.out.c_str());
    REQUIRE_FALSE(got.HasParseError());
    const auto& want = expected[name.c_str()];
    if (want.HasMember("exception")) {
      CHECK(got.HasMember("exception"));
    } else {
      REQUIRE(got.HasMember("passed"));
      CHECK(got["passed"].GetBool() == want["passed"].GetBool());
      CHECK(errors_of(got) == errors_of(want));
    }
    ++compared;
  }
  CHECK(compared >= kMinimumCases);
}
