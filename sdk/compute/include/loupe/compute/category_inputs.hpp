// The inputs of one compute category, read through the model: <cat>_ops.csv, the category
// metadata and the kernel-fusion map. Loading checks what the analysis reads and reports bad
// input as a message that names the file and the problem.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "loupe/model.hpp"

namespace loupe::compute {

inline constexpr std::string_view kKernelTimeSum = "Kernel Time (\xC2\xB5s)_sum";
inline constexpr std::string_view kKernelTimeMean = "Kernel Time (\xC2\xB5s)_mean";
inline constexpr std::string_view kKernelTimeStd = "Kernel Time (\xC2\xB5s)_std";

// Why a category could not be analyzed.
enum class InputProblem {
  None,
  CsvMissing,          // no <cat>_ops.csv in the model
  CsvEmpty,            // 0-byte file or header only
  CsvUnreadable,       // the host could not parse it
  MetadataMissing,     // no <cat>_metadata.json
  MetadataUnreadable,  // invalid JSON
  BadValue,            // a value of the wrong type (text in a numeric column, ...)
};

class CategoryInputs {
 public:
  CategoryInputs(const ModelView& model, std::string category);

  const std::string& category() const { return category_; }
  const std::string& csv_name() const { return csv_name_; }
  const std::string& metadata_name() const { return metadata_name_; }
  const TableView& table() const { return table_; }
  const JsonView& metadata() const { return metadata_; }
  // The directory TraceLens calls --output-dir (the analysis directory), for messages.
  const std::string& analysis_dir() const { return analysis_dir_; }

  InputProblem problem() const { return problem_; }
  const std::string& problem_message() const { return message_; }
  bool ok() const { return problem_ == InputProblem::None; }

  size_t rows() const { return table_.rows(); }
  bool has_column(std::string_view name) const { return table_.column(name) != TableView::npos; }
  // A numeric cell: NaN when the column is absent or the cell is empty/NaN.
  double number(size_t row, std::string_view column) const;
  // A text cell: nullopt when the column is absent or the cell is empty (pandas NaN).
  std::optional<std::string> text(size_t row, std::string_view column) const;

  // high_confidence_kernel_map of category_data/kernel_fusion_metrics.json, in file order.
  const std::vector<std::pair<std::string, std::string>>& fusion_map() const { return fusion_map_; }

  // Checks that every cell of these columns is a number or empty; records BadValue otherwise.
  bool require_numeric_columns(const std::vector<std::string_view>& columns);
  // Records a problem found by the caller (first problem wins).
  void set_problem(InputProblem problem, std::string message);

 private:
  void load(const ModelView& model);
  void check_metadata();

  std::string category_;
  std::string csv_name_;
  std::string metadata_name_;
  std::string analysis_dir_;
  TableView table_;
  JsonView metadata_;
  std::vector<std::pair<std::string, std::string>> fusion_map_;
  InputProblem problem_ = InputProblem::None;
  std::string message_;
};

}  // namespace loupe::compute
