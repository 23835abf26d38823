// The analysis.md validator against TraceLens's validate_report: the corpus in
// tests/data/report_cases (good and broken reports, tests/tools/make_report_cases.py) with the
// verdicts TraceLens's own code gave (expected.json). Without the pack, Loupe's port must give
// the recorded verdicts; with it, TraceLens's code is run again to prove they are its own.
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <rapidjson/document.h>
#include <catch2/catch.hpp>

#include "cli_runner.hpp"
#include "loupe/core/validator.hpp"
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
