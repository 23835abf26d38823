// diff_stats.csv cells: DataFrame(rows).to_csv(index=False), with each column's pandas dtype
// (a number column holding one float, or one missing value, is written as floats).
#pragma once

#include <string>
#include <vector>

#include "loupe/core/prepare/pandas_csv.hpp"
#include "loupe/core/prepare/trace_diff.hpp"

namespace loupe::core::prepare::trace_diff {

// The dtypes of the number columns, decided over all rows (both sources).
class DiffStatsFormat {
 public:
  explicit DiffStatsFormat(const std::vector<DiffStatsRow>& rows);

  // busy_time as TraceLens keeps it: Series.round(3) of the column (ints stay ints).
  double busy_time(const DiffStatsRow& row) const;
  // str() of a lowest_common_ancestor_id ("1", or "1.0" when some row has none).
  std::string lca_id_text(std::size_t id) const;
  // The cells of one row in column order (without `source` when `with_source` is false).
  std::vector<CsvValue> cells(const DiffStatsRow& row, bool with_source) const;

 private:
  bool kernel_time_int_ = true;
  bool busy_time_int_ = true;
  bool lca_id_float_ = false;
};

std::vector<std::string> diff_stats_header(bool with_source);

}  // namespace loupe::core::prepare::trace_diff
