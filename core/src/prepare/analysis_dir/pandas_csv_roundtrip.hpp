// What pandas writes when it reads a CSV and writes (part of) it back: each column gets the
// dtype read_csv infers (int64, float64, bool, object) and cells are re-rendered from it, so
// e.g. an int column with a missing cell comes back as "3.0", and floats pass through pandas'
// not-correctly-rounded parser (Q24) and Python's repr.
#pragma once

#include <string>
#include <vector>

#include "loupe/core/model/csv_table.hpp"

namespace loupe::core::prepare::analysis_dir {

class PandasCsvRoundTrip {
 public:
  explicit PandasCsvRoundTrip(const CsvTable& table);

  // The header line plus extra column names, without the newline.
  std::string header_line(const std::vector<std::string>& extra_columns) const;
  // Row `row` as pandas to_csv writes it, followed by `extra_cells`, without the newline.
  std::string row_line(std::size_t row, const std::vector<std::string>& extra_cells) const;

 private:
  enum class Dtype : unsigned char { kInt, kFloat, kBool, kObject };
  std::string render(std::size_t row, std::size_t column) const;

  const CsvTable& table_;
  std::vector<Dtype> dtypes_;
};

}  // namespace loupe::core::prepare::analysis_dir
