#include "dict_rows.hpp"

#include "loupe/core/prepare/pandas_csv.hpp"

namespace loupe::core::multirank {

namespace pc = loupe::core::prepare::coll;

void DictRows::set_at(std::size_t row_index, std::string_view column, Json value) {
  auto [it, inserted] = index_.try_emplace(std::string(column), columns_.size());
  if (inserted) columns_.emplace_back(column);
  std::vector<Json>& row = rows_[row_index];
  if (row.size() <= it->second) row.resize(columns_.size());
  row[it->second] = std::move(value);
}

const Json& DictRows::at(std::size_t row, std::string_view column) const {
  static const Json kNull;
  const auto it = index_.find(std::string(column));
  if (it == index_.end() || it->second >= rows_[row].size()) return kNull;
  return rows_[row][it->second];
}

std::vector<Json> DictRows::column(std::string_view name) const {
  std::vector<Json> values;
  values.reserve(rows_.size());
  for (std::size_t r = 0; r < rows_.size(); ++r) values.push_back(at(r, name));
  return values;
}

std::string render_csv(const DictRows& table, const std::vector<std::string>& order,
                       const std::vector<std::size_t>& row_order) {
  std::vector<pc::ColumnDtype> dtypes;
  dtypes.reserve(order.size());
  for (const std::string& name : order) dtypes.push_back(pc::infer_dtype(table.column(name)));
  prepare::PandasCsvWriter writer(order);
  std::vector<prepare::CsvValue> cells;
  for (const std::size_t r : row_order) {
    cells.clear();
    for (std::size_t c = 0; c < order.size(); ++c) {
      const Json& value = table.at(r, order[c]);
      cells.push_back(pc::is_missing(value) ? prepare::CsvValue::empty()
                                            : pc::key_cell(value, dtypes[c]));
    }
    writer.add_row(cells);
  }
  return writer.text();
}

Json py_add(const Json& a, const Json& b) {
  if (a.is_int() && b.is_int()) return Json(a.as_int() + b.as_int());
  return Json(a.as_double() + b.as_double());
}

Json py_sub(const Json& a, const Json& b) {
  if (a.is_int() && b.is_int()) return Json(a.as_int() - b.as_int());
  return Json(a.as_double() - b.as_double());
}

bool py_less(const Json& a, const Json& b) {
  if (a.is_int() && b.is_int()) return a.as_int() < b.as_int();
  return a.as_double() < b.as_double();
}

}  // namespace loupe::core::multirank
