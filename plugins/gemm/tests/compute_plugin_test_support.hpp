#pragma once
// Helpers shared by the compute-category plugin tests (gemm, elementwise, reduce, norm, moe,
// triton): an analysis directory from a fixture folder, `loupe analyze` / `loupe validate`, the
// metrics with the analysis directory replaced by TraceLens's placeholder, and card checks.
#include <filesystem>
#include <string>
#include <vector>

#include "cli_runner.hpp"

namespace compute_test {

// Copies category_data/ and metadata/ of `from` into `to`, drops `category`'s metrics file and
// writes a manifest listing `category` with `scope`.
void make_analysis_dir(const std::filesystem::path& from, const std::filesystem::path& to,
                       const std::string& category, const std::string& scope = "standalone");

// loupe analyze DIR -o OUT --only CATEGORY [--compat tracelens] [extra...]
loupe::test::CliResult analyze(const std::filesystem::path& dir, const std::filesystem::path& out,
                               const std::string& category, bool compat,
                               const std::vector<std::string>& extra = {});

// loupe validate FILE --tier compute --scope SCOPE [--compat tracelens]
loupe::test::CliResult validate(const std::filesystem::path& findings, const std::string& scope,
                                bool compat);

// The metrics text with the analysis directory path replaced by "<output_dir>".
std::string metrics_with_placeholder(const std::filesystem::path& out, const std::string& category,
                                     const std::filesystem::path& analysis_dir);

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
