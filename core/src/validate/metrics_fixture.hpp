#pragma once
// The compute tier's `<stem>_metrics.json`: path derivation (spec §1.1) and the two facts
// Level 1 takes from it: relaxed-empty mode (§1.9) and the verbatim cell sets (§2.1).
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>

namespace loupe::core::validate_detail {

// dirname(dirname(findings)) / "category_data" / (basename.replace("_findings.md", "") +
// "_metrics.json").
std::filesystem::path derive_metrics_path(const std::filesystem::path& findings_path);

struct MetricsFixture {
  // category_findings is a JSON array of length 0 (relaxed-empty mode).
  bool category_findings_empty = false;
  // {op.args} for string args (empty string included).
  std::unordered_set<std::string> args;
  // Non-empty string launcher_path / kernel_name_trunc values.
  std::unordered_set<std::string> launcher_paths;
  std::unordered_set<std::string> kernel_names;
  // Set when TraceLens would raise: top level not an object, `operations` not a
  // list, or an operation that is not an object.
  std::string io_error;
};

// A missing, unreadable or unparsable file yields an empty fixture (no io_error).
MetricsFixture load_metrics_fixture(const std::filesystem::path& metrics_path);

// The same from the file's content already in memory (nullopt: there is no such file); `name` is
// the file's name, for messages.
MetricsFixture metrics_fixture_from_text(std::optional<std::string_view> content,
                                         std::string_view name);

}  // namespace loupe::core::validate_detail
