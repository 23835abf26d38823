// A summarized sheet as typed cells, so that tables can be concatenated the way pandas does
// (columns united in order of appearance; an int column that meets floats or missing values
// becomes float64) before being written as CSV.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "loupe/core/prepare/gpu_intervals.hpp"  // PandasNumber

namespace loupe::core::prepare::sheets {

class Cell {
 public:
  enum class Kind { kMissing, kText, kInt, kFloat };

  static Cell missing() { return Cell(Kind::kMissing, {}, 0.0); }
  static Cell text(std::string value) { return Cell(Kind::kText, std::move(value), 0.0); }
  static Cell integer(double value) { return Cell(Kind::kInt, {}, value); }
  static Cell real(double value) { return Cell(Kind::kFloat, {}, value); }  // NaN allowed
  static Cell number(const PandasNumber& n) { return n.is_int ? integer(n.value) : real(n.value); }

  Kind kind() const { return kind_; }
  const std::string& text_value() const { return text_; }
  double number_value() const { return number_; }

 private:
  Cell(Kind kind, std::string text, double number)
      : kind_(kind), text_(std::move(text)), number_(number) {}
  Kind kind_;
  std::string text_;
  double number_;
};

struct SheetTable {
  std::vector<std::string> columns;
  std::vector<std::vector<Cell>> rows;  // each as wide as `columns`

  bool empty() const { return rows.empty(); }
  // The text of column `column` in row `row` (empty when not a text cell or no such column).
  std::string_view text_at(std::size_t row, std::string_view column) const;
};

// pd.concat([first, second]): rows of `first` then `second`, columns of `first` followed by
// the ones only `second` has; cells a part lacks are missing.
SheetTable concat(const SheetTable& first, const SheetTable& second);

// Keeps the rows whose `name` cell passes `keep` (column dtypes stay as they were).
void filter_rows_by_name(SheetTable& table, const std::function<bool(std::string_view)>& keep);

// DataFrame.to_csv(index=False).
std::string to_csv(const SheetTable& table);

}  // namespace loupe::core::prepare::sheets
