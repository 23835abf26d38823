#pragma once
// Helpers shared by the compute-category plugin tests (gemm, elementwise, reduce, norm, moe,
// triton): an analysis directory from a fixture folder, `loupe analyze` / `loupe validate`, the
// metrics with the analysis directory replaced by TraceLens's placeholder, and card checks.
#include <filesystem>
#include <string>
#include <vector>

#include "category_cli.hpp"
#include "cli_runner.hpp"

namespace compute_test {

// The one-category CLI helpers every plugin test shares (tests/support/category_cli.hpp).
using loupe::test::analyze;
using loupe::test::metrics_with_placeholder;
using loupe::test::validate;

// Copies category_data/ and metadata/ of `from` into `to`, drops `category`'s metrics file and
// writes a manifest listing `category` with `scope`.
void make_analysis_dir(const std::filesystem::path& from, const std::filesystem::path& to,
                       const std::string& category, const std::string& scope = "standalone");

// The manifest's comparison_scope ("standalone" when absent).
std::string manifest_scope(const std::filesystem::path& analysis_dir);

// The "### P<n>:" card blocks of a findings file (heading to the next heading).
std::vector<std::string> cards(const std::string& findings_md);

// A default-mode card has every measured fact the plugins promise: a measured time, an
// estimated saving with low and high ends in ms, and an Action line. Returns what is missing.
std::string missing_card_facts(const std::string& card);

// One fixture folder (category_data/, metadata/, expected_<cat>_metrics.json, scope) analyzed in
// one mode into a temp dir; the findings are checked with both validators.
struct FixtureRun {
  int exit_code = -1;
  std::string metrics;   // with the placeholder
  std::string expected;  // TraceLens's metrics of the fixture
  std::string findings;
  int validator_failures = 0;  // of the two validators (Loupe default, TraceLens)
  std::string log;
};
FixtureRun run_fixture(const std::filesystem::path& fixture, const std::string& category,
                       bool compat, const std::filesystem::path& work_dir);

}  // namespace compute_test
