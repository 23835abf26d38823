#pragma once
// Helpers for the CLI tests of the compute-tier plugins (generic, sdpa): an analysis directory
// from a fixture folder, running `loupe analyze` / `loupe validate`, the path placeholder, and the
// reference-pack runs whose manifest routes a category to a given skill.
#include <filesystem>
#include <string>
#include <vector>

#include "category_cli.hpp"
#include "cli_runner.hpp"

namespace compute_cli_test {

// The one-category CLI helpers every plugin test shares (tests/support/category_cli.hpp).
using loupe::test::analyze;
using loupe::test::metrics_with_placeholder;
using loupe::test::validate;

// Copies category_data/ and metadata/ of `from` into `to` and writes a manifest listing
// `category` (with `skill`) and the scope.
void make_analysis_dir(const std::filesystem::path& from, const std::filesystem::path& to,
                       const std::string& category, const std::string& skill,
                       const std::string& scope);

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
