#pragma once
// Running one category through the CLI, for the plugin tests: `loupe analyze DIR --only CAT`,
// `loupe validate` on a compute findings file, and the metrics with the analysis directory
// written as TraceLens's "<output_dir>" placeholder.
#include <filesystem>
#include <string>
#include <vector>

#include "cli_runner.hpp"

namespace loupe::test {

// loupe analyze DIR -o OUT --only CATEGORY [--compat tracelens] [extra...]
CliResult analyze(const std::filesystem::path& dir, const std::filesystem::path& out,
                  const std::string& category, bool compat,
                  const std::vector<std::string>& extra = {});
// loupe validate FILE --tier compute --scope SCOPE [--compat tracelens]
CliResult validate(const std::filesystem::path& findings, const std::string& scope, bool compat);
// OUT/category_data/<category>_metrics.json with the analysis directory replaced by
// "<output_dir>".
std::string metrics_with_placeholder(const std::filesystem::path& out, const std::string& category,
                                     const std::filesystem::path& analysis_dir);

}  // namespace loupe::test
