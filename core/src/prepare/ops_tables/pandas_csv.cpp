// DataFrame.to_csv cell rendering and quoting.
#include "loupe/core/prepare/pandas_csv.hpp"

#include <cmath>
#include <stdexcept>

#include "loupe/python_format.hpp"

namespace loupe::core::prepare {

CsvValue CsvValue::integer(std::int64_t value) { return CsvValue(std::to_string(value)); }

CsvValue CsvValue::real(double value) {
  if (std::isnan(value)) return empty();
  return CsvValue(py::float_repr(value));
}

CsvValue CsvValue::number(const PandasNumber& value) {
  if (value.is_int) return integer(static_cast<std::int64_t>(value.value));
  return real(value.value);
}

std::string csv_quote(std::string_view field) {
  if (field.find_first_of(",\"\n\r") == std::string_view::npos) return std::string(field);
  std::string out = "\"";
  for (const char c : field) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

PandasCsvWriter::PandasCsvWriter(const std::vector<std::string>& columns)
    : columns_(columns.size()) {
  append_line(std::vector<std::string_view>(columns.begin(), columns.end()));
}

void PandasCsvWriter::add_row(const std::vector<CsvValue>& cells) {
  if (cells.size() != columns_) throw std::invalid_argument("CSV row width differs from header");
  std::vector<std::string_view> fields;
  fields.reserve(cells.size());
  for (const CsvValue& cell : cells) fields.emplace_back(cell.str());
  append_line(fields);
}

void PandasCsvWriter::append_line(const std::vector<std::string_view>& fields) {
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) text_ += ',';
    text_ += csv_quote(fields[i]);
  }
  text_ += '\n';
}

}  // namespace loupe::core::prepare
