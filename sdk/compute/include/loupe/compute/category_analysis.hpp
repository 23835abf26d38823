// The compute-tier analysis of one category: <cat>_ops.csv + metadata -> the metrics document
// (operations, category_specific, impact_estimates, category_findings), in TraceLens's layout
// for status OK, NO_DATA and ERROR. A category plugin supplies only its options and its
// category_specific block.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "loupe/compute/category_inputs.hpp"
#include "loupe/compute/op_fields.hpp"
#include "loupe/json_value.hpp"

namespace loupe::compute {

struct AnalysisOptions {
  std::string category;
  bool comparative = false;
  // true: reproduce TraceLens exactly (quirks kept); false: Loupe's corrected mode.
  bool tracelens_compat = false;
  // Raw CSV columns copied into each operation (TraceLens extra_fields).
  std::vector<std::string> extra_fields{"Input Dims", "Input type"};
  // The category's own kernel-library rules, tried first in the corrected mode.
  std::vector<LibraryRule> library_rules;
  // The category_specific block. Called with the loaded inputs; for NO_DATA the table has no
  // rows (and may be absent).
  std::function<Json(const CategoryInputs&)> category_specific;
  // Optional per-operation "classification" object (TraceLens operation_classifier), written
  // just before "library"; called with the CSV row of the operation.
  std::function<Json(const CategoryInputs&, size_t row)> operation_classifier;
  // Optional row filter (TraceLens pre-filtering): rows for which it returns false are left out
  // of the totals, the operation count and operations[]. All rows are kept when empty.
  std::function<bool(const CategoryInputs&, size_t row)> keep_row;
};

enum class AnalysisStatus { Ok, NoData, Error };

struct AnalysisResult {
  AnalysisStatus status = AnalysisStatus::Error;
  Json metrics;
  std::string message;                // the error text (ERROR) or the reason (NO_DATA)
  std::vector<std::string> warnings;  // console warnings TraceLens prints
};

AnalysisResult analyze_category(const CategoryInputs& inputs, const AnalysisOptions& options);

// Sum of a numeric column like pandas Series.sum() (NaN skipped, numpy pairwise order), over
// the given CSV rows (all rows when empty).
double column_sum(const CategoryInputs& inputs, std::string_view column,
                  const std::vector<size_t>& rows = {});

// Replaces NaN and infinite numbers by null (the corrected mode never writes NaN).
void replace_non_finite_with_null(Json& value);

}  // namespace loupe::compute
