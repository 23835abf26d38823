#pragma once
// Helpers for the conv CLI tests: an analysis directory from a case folder, and running
// `loupe analyze` / `loupe validate` on it.
#include <filesystem>
#include <string>
#include <vector>

#include "category_cli.hpp"
#include "cli_runner.hpp"

namespace conv_test {

// The one-category CLI helpers every plugin test shares (tests/support/category_cli.hpp).
using loupe::test::analyze;
using loupe::test::metrics_with_placeholder;
using loupe::test::validate;

// Copies category_data/ and metadata/ of `from` into `to` and writes a manifest for conv_fwd.
void make_analysis_dir(const std::filesystem::path& from, const std::filesystem::path& to);

}  // namespace conv_test
