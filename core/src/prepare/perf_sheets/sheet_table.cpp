#include "sheet_table.hpp"

#include <algorithm>

#include "loupe/core/prepare/pandas_csv.hpp"

namespace loupe::core::prepare::sheets {
namespace {

std::size_t column_index(const std::vector<std::string>& columns, std::string_view name) {
  return static_cast<std::size_t>(std::find(columns.begin(), columns.end(), name) -
                                  columns.begin());
}

// A column holding ints next to floats or missing values is float64 in pandas.
bool ints_as_floats(const SheetTable& table, std::size_t column) {
  bool has_int = false, has_other = false;
  for (const auto& row : table.rows) {
    const Cell::Kind kind = row[column].kind();
    has_int = has_int || kind == Cell::Kind::kInt;
    has_other = has_other || kind == Cell::Kind::kFloat || kind == Cell::Kind::kMissing;
  }
  return has_int && has_other;
}

CsvValue render(const Cell& cell, bool int_as_float) {
  switch (cell.kind()) {
    case Cell::Kind::kMissing:
      return CsvValue::empty();
    case Cell::Kind::kText:
      return CsvValue::text(cell.text_value());
    case Cell::Kind::kInt:
      return int_as_float ? CsvValue::real(cell.number_value())
                          : CsvValue::number({cell.number_value(), true});
    case Cell::Kind::kFloat:
      break;
  }
  return CsvValue::real(cell.number_value());
}

}  // namespace

std::string_view SheetTable::text_at(std::size_t row, std::string_view column) const {
  const std::size_t c = column_index(columns, column);
  if (c == columns.size() || rows[row][c].kind() != Cell::Kind::kText) return {};
  return rows[row][c].text_value();
}

SheetTable concat(const SheetTable& first, const SheetTable& second) {
  SheetTable out;
  out.columns = first.columns;
  for (const auto& column : second.columns) {
    if (column_index(out.columns, column) == out.columns.size()) out.columns.push_back(column);
  }
  for (const SheetTable* part : {&first, &second}) {
    std::vector<std::size_t> source(out.columns.size());
    for (std::size_t c = 0; c < out.columns.size(); ++c) {
      source[c] = column_index(part->columns, out.columns[c]);
    }
    for (const auto& row : part->rows) {
      std::vector<Cell> cells;
      cells.reserve(out.columns.size());
      for (const std::size_t s : source) {
        cells.push_back(s < row.size() ? row[s] : Cell::missing());
      }
      out.rows.push_back(std::move(cells));
    }
  }
  // The united columns get their dtype now, so a later row filter cannot turn them back to int.
  for (std::size_t c = 0; c < out.columns.size(); ++c) {
    if (!ints_as_floats(out, c)) continue;
    for (auto& row : out.rows) {
      if (row[c].kind() == Cell::Kind::kInt) row[c] = Cell::real(row[c].number_value());
    }
  }
  return out;
}

void filter_rows_by_name(SheetTable& table, const std::function<bool(std::string_view)>& keep) {
  std::vector<std::vector<Cell>> kept;
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    if (keep(table.text_at(r, "name"))) kept.push_back(std::move(table.rows[r]));
  }
  table.rows = std::move(kept);
}

std::string to_csv(const SheetTable& table) {
  std::vector<bool> demote(table.columns.size());
  for (std::size_t c = 0; c < table.columns.size(); ++c) demote[c] = ints_as_floats(table, c);
  PandasCsvWriter writer(table.columns);
  for (const auto& row : table.rows) {
    std::vector<CsvValue> cells;
    cells.reserve(row.size());
    for (std::size_t c = 0; c < row.size(); ++c) cells.push_back(render(row[c], demote[c]));
    writer.add_row(cells);
  }
  return writer.text();
}

}  // namespace loupe::core::prepare::sheets
