// Driver for the Level-1 findings validator (spec §2.1 pseudocode; rule order is normative).
#include "loupe/core/validate/validator.hpp"

#include <exception>
#include <fstream>
#include <iterator>
#include <optional>
#include <system_error>

#include "data_tables.hpp"
#include "default_mode_leniency.hpp"
#include "marker_checks.hpp"
#include "metrics_fixture.hpp"
#include "python_text.hpp"
#include "result_of.hpp"
#include "structure_checks.hpp"
#include "utf8.hpp"

namespace loupe::core {
namespace {

namespace detail = validate_detail;

using validate_detail::finish;
using validate_detail::io_failure;

// Where a compute-tier file's metrics come from: the file beside it on disk, or the document the
// run holds in memory (as written; nullopt: none was written).
struct MetricsSource {
  bool in_memory = false;
  std::optional<std::string_view> text;
};

detail::MetricsFixture read_metrics(const std::filesystem::path& metrics_path,
                                    const MetricsSource& source) {
  if (!source.in_memory) return detail::load_metrics_fixture(metrics_path);
  return detail::metrics_fixture_from_text(source.text, metrics_path.filename().string());
}

ValidationResult validate_normalized(std::string_view text,
                                     const std::filesystem::path& findings_path,
                                     const MetricsSource& source, std::string_view tier,
                                     Scope scope, ValidationMode mode) {
  const bool loupe_default = mode == ValidationMode::Default;
  if (loupe_default && detail::is_kernel_fusion_no_opportunities_file(text, tier)) {
    return finish({});
  }

  const bool compute_tier = tier == "compute";
  const std::filesystem::path metrics_path = detail::derive_metrics_path(findings_path);
  detail::MetricsFixture metrics;
  if (compute_tier) {
    metrics = read_metrics(metrics_path, source);
    if (!metrics.io_error.empty()) {
      return io_failure(metrics.io_error);
    }
  }

  const bool relaxed_compute = compute_tier && metrics.category_findings_empty;
  const bool honest_empty = loupe_default && detail::is_honest_empty_findings(text, tier);
  const bool relaxed = relaxed_compute || honest_empty;

  std::vector<std::string> errors;
  detail::check_structure(text, tier, relaxed, errors);  // F-1 … F-8
  if (compute_tier) {                                    // F-9 … F-13
    detail::DataTableOptions table_options;
    table_options.scope = scope;
    table_options.metrics_name = metrics_path.filename().string();
    table_options.em_dash_means_absent = loupe_default;
    detail::check_compute_data_tables(text, metrics, table_options, errors);
  }
  detail::MarkerCheckOptions marker_options;  // M-1 … M-9
  marker_options.file_name = findings_path.filename().string();
  marker_options.p_item_required = !relaxed;
  detail::check_markers(text, marker_options, errors);
  return finish(std::move(errors));
}

ValidationResult validate_text(std::string_view utf8_text,
                               const std::filesystem::path& findings_path,
                               const MetricsSource& source, std::string_view tier, Scope scope,
                               ValidationMode mode) {
  try {
    if (!detail::is_valid_utf8(utf8_text)) {
      return io_failure("Findings file is not valid UTF-8: " + findings_path.string());
    }
    const std::string text = detail::normalize_newlines(utf8_text);
    return validate_normalized(text, findings_path, source, tier, scope, mode);
  } catch (const std::exception& e) {
    return io_failure(std::string("Findings validation failed: ") + e.what());
  }
}

}  // namespace

ValidationResult validate_findings_text(std::string_view utf8_text,
                                        const std::filesystem::path& findings_path,
                                        std::string_view tier, Scope scope, ValidationMode mode) {
  return validate_text(utf8_text, findings_path, MetricsSource{}, tier, scope, mode);
}

ValidationResult validate_findings_in_memory(std::string_view utf8_text,
                                             const std::filesystem::path& findings_path,
                                             std::optional<std::string_view> metrics_json,
                                             std::string_view tier, Scope scope,
                                             ValidationMode mode) {
  return validate_text(utf8_text, findings_path, MetricsSource{true, metrics_json}, tier, scope,
                       mode);
}

ValidationResult validate_findings_file(const std::filesystem::path& findings_path,
                                        std::string_view tier, Scope scope, ValidationMode mode) {
  try {
    std::error_code ec;
    if (!std::filesystem::exists(findings_path, ec)) {
      return finish({"File not found: " + findings_path.string()});
    }
    if (std::filesystem::is_directory(findings_path, ec)) {
      return io_failure("Findings path is a directory: " + findings_path.string());
    }
    std::ifstream stream(findings_path, std::ios::binary);
    if (!stream) {
      return io_failure("Cannot open findings file: " + findings_path.string());
    }
    const std::string content((std::istreambuf_iterator<char>(stream)),
                              std::istreambuf_iterator<char>());
    if (stream.bad()) {
      return io_failure("Cannot read findings file: " + findings_path.string());
    }
    return validate_findings_text(content, findings_path, tier, scope, mode);
  } catch (const std::exception& e) {
    return io_failure(std::string("Findings validation failed: ") + e.what());
  }
}

}  // namespace loupe::core
