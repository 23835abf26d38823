// A table built the way TraceLens builds its collective tables, as a list of dicts: columns in
// order of first appearance, a missing key is NaN. Rendered with pandas' dtype inference
// (docs/multirank.md) through the project's pandas CSV writer.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "loupe/core/prepare/coll/key_columns.hpp"
#include "loupe/json_value.hpp"

namespace loupe::core::multirank {

class DictRows {
 public:
  void add_row() { rows_.emplace_back(columns_.size()); }
  // Sets `column` on the last row (a new column is null on every earlier row).
  void set(std::string_view column, Json value) {
    set_at(rows_.size() - 1, column, std::move(value));
  }
  void set_at(std::size_t row, std::string_view column, Json value);

  std::size_t row_count() const { return rows_.size(); }
  const std::vector<std::string>& columns() const { return columns_; }
  // null when the row never set the column.
  const Json& at(std::size_t row, std::string_view column) const;
  bool has_column(std::string_view column) const { return index_.count(std::string(column)) > 0; }
  // The column's values in row order (nulls for rows without it).
  std::vector<Json> column(std::string_view name) const;

 private:
  std::vector<std::string> columns_;
  std::unordered_map<std::string, std::size_t> index_;
  std::vector<std::vector<Json>> rows_;
};

// DataFrame.to_csv(index=False) of the columns `order` (each must exist), rows in `row_order`.
// A column's dtype is inferred over all its values; missing cells are empty.
std::string render_csv(const DictRows& table, const std::vector<std::string>& order,
                       const std::vector<std::size_t>& row_order);

// Python number arithmetic on Json numbers: int op int stays int, anything else is a float.
Json py_add(const Json& a, const Json& b);
Json py_sub(const Json& a, const Json& b);
bool py_less(const Json& a, const Json& b);

}  // namespace loupe::core::multirank
