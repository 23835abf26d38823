#pragma once
// Level-1 findings validator: a native reimplementation of TraceLens's
// `validate_findings_file` (spec: docs/contracts/findings_and_validator.md §2.1, §2.2).
//
// ValidationMode::TraceLens reproduces TraceLens exactly, quirks included.
// ValidationMode::Default differs only by accepting three legitimate forms that
// TraceLens rejects (spec ); see core/src/validate/default_mode_leniency.hpp
// and docs/deviations.md.
//
// None of these functions throws: infrastructure failures are reported through
// ValidationResult::io_error.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loupe/vocabulary.hpp"

namespace loupe::core {

enum class ValidationMode { Default, TraceLens };  // TraceLens = exact parity (--compat tracelens)

// Scope is the SDK's (loupe/vocabulary.hpp). Python's `comparison_scope=None` behaves as
// Standalone at Level 1.
using loupe::Scope;

struct ValidationResult {
  bool passed = false;
  std::vector<std::string> errors;  // ordered exactly like TraceLens
  // The findings file is unreadable, not UTF-8 or a directory, or the metrics JSON is not an
  // object / has a malformed `operations` value. `errors` then holds one description.
  bool io_error = false;
};

// `tier` is the raw argument string: "compute", "system", "fusion", or anything else
// (compared case-sensitively, Q-19).
ValidationResult validate_findings_file(const std::filesystem::path& findings_path,
                                        std::string_view tier, Scope scope, ValidationMode mode);

// Same, with the file content already in memory (raw bytes; newlines are normalized here).
// `findings_path` still provides the basename used in messages and the derived metrics-JSON
// path (grandparent/category_data/<stem>_metrics.json).
ValidationResult validate_findings_text(std::string_view utf8_text,
                                        const std::filesystem::path& findings_path,
                                        std::string_view tier, Scope scope, ValidationMode mode);

// The run's path (docs/architecture.md, "One run of `loupe analyze DIR`", step 5): the findings
// just rendered, checked against the metrics document written beside them, given here as written
// (nullopt: no metrics file), so nothing is read from disk. `findings_path` names the file in
// messages and the metrics file (as derived above) in the compute tier's.
ValidationResult validate_findings_in_memory(std::string_view utf8_text,
                                             const std::filesystem::path& findings_path,
                                             std::optional<std::string_view> metrics_json,
                                             std::string_view tier, Scope scope,
                                             ValidationMode mode);

// Level 3: TraceLens's validate_report on <output_dir>/analysis.md, checked against the
// directory's priority_data.json and category_data/*_metrics.json (docs/report.md,
// "Validating analysis.md"). `scope` nullopt is Python's comparison_scope=None, which
// TraceLens treats like comparative for the kernel-fusion Impact lines. Messages and their
// order are TraceLens's; where TraceLens itself raises, io_error is set.
ValidationResult validate_report(const std::filesystem::path& output_dir,
                                 std::optional<Scope> scope);

// What the sub-agent CLI snippet prints: "PASS: Findings file is valid\n", or "FAIL:\n"
// followed by "  - <error>\n" per error.
std::string format_validation_text(const ValidationResult& result);

// {"passed":bool,"errors":[...]} for --json.
std::string format_validation_json(const ValidationResult& result);

}  // namespace loupe::core
