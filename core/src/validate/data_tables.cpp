#include "data_tables.hpp"

#include <array>
#include <optional>
#include <unordered_set>

#include "default_mode_leniency.hpp"
#include "findings_patterns.hpp"
#include "python_text.hpp"

namespace loupe::core::validate_detail {
namespace {

constexpr std::string_view kDataLabel = "**Data:**";
constexpr std::string_view kKernelNameAbsent = "\u2014";  // the only exempt Kernel Name value
constexpr std::size_t kArgsColumn = 1;
constexpr std::size_t kKernelPathColumn = 2;
constexpr std::size_t kKernelNameColumn = 3;

const std::vector<std::string> kStandaloneHeader = {
    "Operation", "Args",  "Kernel Path", "Kernel Name", "Time (ms)",
    "%E2E",      "Count", "FLOPS/Byte",  "Efficiency",  "Bound"};
const std::vector<std::string> kComparativeHeader = {
    "Operation",         "Args (T1)",     "Kernel Path",     "Kernel Name",     "Trace 1 Time (ms)",
    "Trace 2 Time (ms)", "Count (T1/T2)", "Difference (ms)", "FLOPS/Byte (T1)", "Bound (T1)"};

struct Block {
  std::size_t start = 0;  // line index of the candidate comment
  std::size_t end = 0;    // exclusive
};

// Lines on which CANDIDATE matches; `compute` when the first match contains "tier=compute".
struct CandidateLine {
  std::size_t index = 0;
  bool compute = false;
};

std::vector<CandidateLine> find_candidate_lines(const std::vector<std::string_view>& lines) {
  std::vector<CandidateLine> found;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (const auto match = search_candidate(lines[i])) {
      const bool compute =
          match->matched_text(lines[i]).find("tier=compute") != std::string_view::npos;
      found.push_back({i, compute});
    }
  }
  return found;
}

// [c.strip() for c in line.strip().strip("|").split("|")]
std::vector<std::string> split_cells(std::string_view line) {
  std::vector<std::string> cells;
  for (const std::string_view piece : split_on(strip_char(strip(line), '|'), '|')) {
    cells.emplace_back(strip(piece));
  }
  return cells;
}

bool is_table_line(std::string_view line) {
  const std::string_view left = lstrip(line);
  const std::string_view right = rstrip(line);
  return !left.empty() && left.front() == '|' && !right.empty() && right.back() == '|';
}

std::optional<std::size_t> find_header(const std::vector<std::string_view>& lines,
                                       const Block& block) {
  std::optional<std::size_t> data_index;
  for (std::size_t i = block.start; i < block.end; ++i) {
    if (strip(lines[i]) == kDataLabel) {
      data_index = i;
      break;
    }
  }
  if (!data_index) {
    return std::nullopt;
  }
  for (std::size_t i = *data_index + 1; i < block.end; ++i) {
    if (is_table_line(lines[i])) {
      return i;
    }
  }
  return std::nullopt;
}

bool header_matches(const std::vector<std::string>& cells,
                    const std::vector<std::string>& required) {
  if (cells.size() < required.size()) {
    return false;
  }
  for (std::size_t i = 0; i < required.size(); ++i) {
    if (cells[i] != required[i]) {
      return false;
    }
  }
  return true;
}

class RowChecker {
 public:
  RowChecker(const MetricsFixture& metrics, const DataTableOptions& options,
             std::vector<std::string>& errors)
      : metrics_(metrics), options_(options), errors_(errors) {}

  void check(const std::vector<std::string>& cells, std::size_t line_number) const {
    if (const std::string* args = cell(cells, kArgsColumn);
        args != nullptr && !metrics_.args.empty() && !metrics_.args.contains(*args)) {
      report("Args", line_number, "operations[].args", "(paste verbatim, keep <br>)", *args);
    }
    if (const std::string* path = cell(cells, kKernelPathColumn);
        path != nullptr && !metrics_.launcher_paths.contains(*path) &&
        !metrics_.launcher_paths.empty()) {
      report("Kernel Path", line_number, "operations[].launcher_path", "(paste verbatim)", *path);
    }
    if (const std::string* name = cell(cells, kKernelNameColumn);
        name != nullptr && *name != kKernelNameAbsent && !metrics_.kernel_names.empty() &&
        !metrics_.kernel_names.contains(*name)) {
      report("Kernel Name", line_number, "operations[].kernel_name_trunc", "(paste verbatim)",
             *name);
    }
  }

 private:
  // The cell to verify, or nullptr when it is missing, empty, or (default mode, Args and
  // Kernel Path only) an em dash for an absent value.
  const std::string* cell(const std::vector<std::string>& cells, std::size_t column) const {
    if (column >= cells.size() || cells[column].empty()) {
      return nullptr;
    }
    const bool absent_value_column = column == kArgsColumn || column == kKernelPathColumn;
    if (absent_value_column && options_.em_dash_means_absent &&
        is_absent_value_em_dash(cells[column])) {
      return nullptr;
    }
    return &cells[column];
  }

  void report(std::string_view column, std::size_t line_number, std::string_view source,
              std::string_view advice, const std::string& value) const {
    errors_.push_back(std::string(column) + " cell on line " + std::to_string(line_number) +
                      " does not match " + std::string(source) + " in " + options_.metrics_name +
                      " " + std::string(advice) + ": " + value);
  }

  const MetricsFixture& metrics_;
  const DataTableOptions& options_;
  std::vector<std::string>& errors_;
};

void check_block(const std::vector<std::string_view>& lines, const Block& block,
                 const std::vector<std::string>& required, const RowChecker& rows,
                 std::vector<std::string>& errors) {
  const auto header_index = find_header(lines, block);
  if (!header_index || *header_index + 1 >= block.end) {
    errors.push_back("compute-tier reasoning-candidate block at line " +
                     std::to_string(block.start + 1) + ": no **Data:** table found");
    return;
  }
  const std::vector<std::string> header = split_cells(lines[*header_index]);
  if (!header_matches(header, required)) {
    errors.push_back("compute Data table at line " + std::to_string(*header_index + 1) +
                     ": header must start with the 10 canonical columns in order " +
                     repr_list(required) + "; got " + repr_list(header) +
                     " (sub_agent_spec.md \u00a7 Operations Table Schema)");
    return;
  }
  // The line after the header is taken as the separator and never inspected.
  for (std::size_t i = *header_index + 2; i < block.end; ++i) {
    const std::string_view stripped = strip(lines[i]);
    if (stripped.empty() || stripped.front() != '|') {
      break;
    }
    rows.check(split_cells(lines[i]), i + 1);
  }
}

}  // namespace

void check_compute_data_tables(std::string_view text, const MetricsFixture& metrics,
                               const DataTableOptions& options, std::vector<std::string>& errors) {
  const std::vector<std::string_view> lines = split_lines(text);
  const std::vector<CandidateLine> candidates = find_candidate_lines(lines);
  const std::vector<std::string>& required =
      options.scope == Scope::Comparative ? kComparativeHeader : kStandaloneHeader;
  const RowChecker rows(metrics, options, errors);
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    if (!candidates[c].compute) {
      continue;
    }
    const std::size_t end = c + 1 < candidates.size() ? candidates[c + 1].index : lines.size();
    check_block(lines, {candidates[c].index, end}, required, rows, errors);
  }
}

}  // namespace loupe::core::validate_detail
