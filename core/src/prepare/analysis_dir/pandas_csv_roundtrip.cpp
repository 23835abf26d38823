#include "pandas_csv_roundtrip.hpp"

#include <array>
#include <cctype>
#include <charconv>
#include <cstdint>

#include "loupe/core/prepare/pandas_csv.hpp"
#include "loupe/python_format.hpp"
#include "pandas_float.hpp"

namespace loupe::core::prepare::analysis_dir {
namespace {

// pandas.read_csv's default na_values (plus the empty field).
bool is_na_text(std::string_view t) {
  static constexpr std::array<std::string_view, 19> kNa = {
      "",     "#N/A",   "#N/A N/A", "#NA",  "-1.#IND", "-1.#QNAN", "-NaN",
      "-nan", "1.#IND", "1.#QNAN",  "<NA>", "N/A",     "NA",       "NULL",
      "NaN",  "None",   "n/a",      "nan",  "null"};
  for (const auto na : kNa) {
    if (t == na) return true;
  }
  return false;
}

bool is_int_text(std::string_view t) {
  if (!t.empty() && (t.front() == '+' || t.front() == '-')) t.remove_prefix(1);
  if (t.empty()) return false;
  for (const char c : t) {
    if (std::isdigit(static_cast<unsigned char>(c)) == 0) return false;
  }
  std::int64_t v = 0;
  const auto* begin = t.data();
  return std::from_chars(begin, begin + t.size(), v).ec == std::errc();
}

bool is_bool_text(std::string_view t) {
  return t == "True" || t == "False" || t == "TRUE" || t == "FALSE" || t == "true" || t == "false";
}

bool is_float_text(std::string_view t) {
  if (t == "inf" || t == "-inf" || t == "+inf" || t == "Infinity" || t == "-Infinity") {
    return true;
  }
  return pandas_parse_float(t).has_value();
}

std::string int_text(std::string_view t) {
  std::int64_t v = 0;
  if (!t.empty() && t.front() == '+') t.remove_prefix(1);
  std::from_chars(t.data(), t.data() + t.size(), v);
  return std::to_string(v);
}

std::string float_text(std::string_view t) {
  if (t == "inf" || t == "+inf" || t == "Infinity") return "inf";
  if (t == "-inf" || t == "-Infinity") return "-inf";
  return loupe::py::float_repr(pandas_parse_float(t).value_or(0.0));
}

}  // namespace

PandasCsvRoundTrip::PandasCsvRoundTrip(const CsvTable& table) : table_(table) {
  dtypes_.reserve(table.column_count());
  for (std::size_t c = 0; c < table.column_count(); ++c) {
    bool any_value = false, any_na = false, all_int = true, all_float = true, all_bool = true;
    for (std::size_t r = 0; r < table.row_count(); ++r) {
      const std::string_view t = table.cell(r, c).text;
      if (table.cell(r, c).kind == CsvCell::Kind::Empty || is_na_text(t)) {
        any_na = true;
        continue;
      }
      any_value = true;
      all_int = all_int && is_int_text(t);
      all_float = all_float && is_float_text(t);
      all_bool = all_bool && is_bool_text(t);
    }
    Dtype dtype = Dtype::kObject;
    if (!any_value) {
      dtype = Dtype::kFloat;  // an all-NaN column is float64
    } else if (all_int) {
      dtype = any_na ? Dtype::kFloat : Dtype::kInt;
    } else if (all_float) {
      dtype = Dtype::kFloat;
    } else if (all_bool && !any_na) {
      dtype = Dtype::kBool;
    }
    dtypes_.push_back(dtype);
  }
}

std::string PandasCsvRoundTrip::render(std::size_t row, std::size_t column) const {
  const CsvCellView cell = table_.cell(row, column);
  if (cell.kind == CsvCell::Kind::Empty || is_na_text(cell.text)) return {};
  switch (dtypes_[column]) {
    case Dtype::kInt:
      return int_text(cell.text);
    case Dtype::kFloat:
      return float_text(cell.text);
    case Dtype::kBool:
      return cell.text == "True" || cell.text == "TRUE" || cell.text == "true" ? "True" : "False";
    case Dtype::kObject:
      break;
  }
  return csv_quote(cell.text);
}

std::string PandasCsvRoundTrip::header_line(const std::vector<std::string>& extra_columns) const {
  std::string line;
  for (std::size_t c = 0; c < table_.column_count(); ++c) {
    if (c > 0) line.push_back(',');
    line.append(csv_quote(table_.column_name(c)));
  }
  for (const auto& name : extra_columns) {
    if (!line.empty()) line.push_back(',');
    line.append(csv_quote(name));
  }
  return line;
}

std::string PandasCsvRoundTrip::row_line(std::size_t row,
                                         const std::vector<std::string>& extra_cells) const {
  std::string line;
  for (std::size_t c = 0; c < table_.column_count(); ++c) {
    if (c > 0) line.push_back(',');
    line.append(render(row, c));
  }
  for (const auto& cell : extra_cells) {
    if (table_.column_count() > 0 || &cell != &extra_cells.front()) line.push_back(',');
    line.append(csv_quote(cell));
  }
  return line;
}

}  // namespace loupe::core::prepare::analysis_dir
