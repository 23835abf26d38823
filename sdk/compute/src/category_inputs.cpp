#include "loupe/compute/category_inputs.hpp"

#include <cmath>

namespace loupe::compute {

CategoryInputs::CategoryInputs(const ModelView& model, std::string category)
    : category_(std::move(category)),
      csv_name_("category_data/" + category_ + "_ops.csv"),
      metadata_name_("metadata/" + category_ + "_metadata.json") {
  analysis_dir_ = model.property("input_dir").value_or(".");
  load(model);
}

void CategoryInputs::set_problem(InputProblem problem, std::string message) {
  if (problem_ != InputProblem::None) return;
  problem_ = problem;
  message_ = std::move(message);
}

void CategoryInputs::load(const ModelView& model) {
  table_ = model.table(csv_name_);
  metadata_ = model.document(metadata_name_);
  if (const auto fusion = model.document("category_data/kernel_fusion_metrics.json")) {
    const JsonView map = fusion["high_confidence_kernel_map"];
    for (size_t i = 0; i < map.size() && map.is_object(); ++i) {
      fusion_map_.emplace_back(std::string(map.key_at(i)), std::string(map.at(i).as_string()));
    }
  }

  if (!table_) {
    if (const auto why = model.property("load_error:" + csv_name_)) {
      set_problem(InputProblem::CsvUnreadable, csv_name_ + " could not be parsed: " + *why);
    } else {
      set_problem(InputProblem::CsvMissing,
                  "Category CSV not found: " + analysis_dir_ + "/" + csv_name_);
    }
  }
  if (!metadata_) {
    if (const auto why = model.property("load_error:" + metadata_name_)) {
      set_problem(InputProblem::MetadataUnreadable, metadata_name_ + " is not valid JSON: " + *why);
    } else {
      set_problem(InputProblem::MetadataMissing, "[Errno 2] No such file or directory: '" +
                                                     analysis_dir_ + "/" + metadata_name_ + "'");
    }
  }
  if (problem_ != InputProblem::None) return;
  if (table_.columns() == 0) {
    set_problem(InputProblem::CsvEmpty, csv_name_ + " is empty (no header and no rows)");
    return;
  }
  if (table_.rows() == 0) {
    set_problem(InputProblem::CsvEmpty, csv_name_ + " has a header but no rows");
    return;
  }
  check_metadata();
}

void CategoryInputs::check_metadata() {
  if (!metadata_.is_object()) {
    set_problem(InputProblem::BadValue, metadata_name_ + " must hold a JSON object");
    return;
  }
  const auto number_or_absent = [&](const JsonView& v, const std::string& where) {
    if (v.present() && !v.is_null() && !v.is_number()) {
      set_problem(InputProblem::BadValue, metadata_name_ + ": " + where + " must be a number");
    }
  };
  number_or_absent(metadata_["peak_hbm_bw_tbs"], "peak_hbm_bw_tbs");
  number_or_absent(metadata_["peak_bf16_maf_tflops"], "peak_bf16_maf_tflops");
  const JsonView maf = metadata_["max_achievable_tflops"];
  if (maf.is_object()) {
    for (size_t i = 0; i < maf.size(); ++i) {
      number_or_absent(maf.at(i), "max_achievable_tflops." + std::string(maf.key_at(i)));
    }
  } else {
    number_or_absent(maf, "max_achievable_tflops");
  }
  const JsonView util = metadata_["gpu_utilization"];
  if (util.present() && !util.is_null() && !util.is_object()) {
    set_problem(InputProblem::BadValue, metadata_name_ + ": gpu_utilization must be an object");
  }
  number_or_absent(util["total_time_ms"], "gpu_utilization.total_time_ms");
}

double CategoryInputs::number(size_t row, std::string_view column) const {
  const CellView cell = table_.cell(row, column);
  return cell.is_number() ? cell.number : std::nan("");
}

std::optional<std::string> CategoryInputs::text(size_t row, std::string_view column) const {
  const CellView cell = table_.cell(row, column);
  if (cell.empty()) return std::nullopt;
  if (cell.is_number() && std::isnan(cell.number)) return std::nullopt;
  return std::string(cell.text);
}

bool CategoryInputs::require_numeric_columns(const std::vector<std::string_view>& columns) {
  for (const auto column : columns) {
    const size_t c = table_.column(column);
    if (c == TableView::npos) continue;
    for (size_t r = 0; r < table_.rows(); ++r) {
      const CellView cell = table_.cell(r, c);
      if (cell.kind == CellView::Kind::Text) {
        set_problem(InputProblem::BadValue, csv_name_ + ": column '" + std::string(column) +
                                                "' row " + std::to_string(r + 1) +
                                                " is not a number: '" + std::string(cell.text) +
                                                "'");
        return false;
      }
    }
  }
  return true;
}

}  // namespace loupe::compute
