#pragma once
// Helpers for the conv CLI tests: an analysis directory from a case folder, and running
// `loupe analyze` / `loupe validate` on it.
#include <filesystem>
#include <string>
#include <vector>

#include "cli_runner.hpp"

namespace conv_test {

// Copies category_data/ and metadata/ of `from` into `to` and writes a manifest for conv_fwd.
void make_analysis_dir(const std::filesystem::path& from, const std::filesystem::path& to);

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

}  // namespace conv_test
