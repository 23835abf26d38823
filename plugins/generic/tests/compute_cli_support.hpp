#pragma once
// Helpers for the CLI tests of the compute-tier plugins (generic, sdpa): an analysis directory
// from a fixture folder, running `loupe analyze` / `loupe validate`, the path placeholder, and the
// reference-pack runs whose manifest routes a category to a given skill.
#include <filesystem>
#include <string>
#include <vector>

#include "cli_runner.hpp"

namespace compute_cli_test {

// Copies category_data/ and metadata/ of `from` into `to` and writes a manifest listing
// `category` (with `skill`) and the scope.
void make_analysis_dir(const std::filesystem::path& from, const std::filesystem::path& to,
                       const std::string& category, const std::string& skill,
                       const std::string& scope);

// loupe analyze DIR -o OUT --only CATEGORY [--compat tracelens] [extra...]
loupe::test::CliResult analyze(const std::filesystem::path& dir, const std::filesystem::path& out,
                               const std::string& category, bool compat,
                               const std::vector<std::string>& extra = {});

// loupe validate FILE --tier compute --scope SCOPE [--compat tracelens]
loupe::test::CliResult validate(const std::filesystem::path& findings, const std::string& scope,
                                bool compat);

// The metrics text with the analysis directory path replaced by TraceLens's placeholder.
std::string metrics_with_placeholder(const std::filesystem::path& out, const std::string& category,
                                     const std::filesystem::path& analysis_dir);

struct PackCase {
  std::filesystem::path dir;
  std::string category;
  std::string scope;  // the manifest's comparison_scope
};

// Every run of data/reference and data/reference-inference whose manifest lists a category
// with this skill and that has TraceLens's metrics file for it.
std::vector<PackCase> pack_cases_for_skill(const std::filesystem::path& shared,
                                           const std::string& skill);

}  // namespace compute_cli_test
