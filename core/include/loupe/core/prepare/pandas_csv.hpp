// DataFrame.to_csv(index=False) as pandas 1.5 writes it: cells rendered from typed values
// (ints, floats by repr, NaN / None as empty, bools, str() of objects), QUOTE_MINIMAL quoting,
// "\n" line ends.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "loupe/core/prepare/gpu_intervals.hpp"  // PandasNumber

namespace loupe::core::prepare {

// One rendered cell (unquoted text).
class CsvValue {
 public:
  static CsvValue empty() { return CsvValue(std::string()); }  // None, NaN
  static CsvValue integer(std::int64_t value);
  static CsvValue real(double value);  // repr(float); NaN -> empty
  static CsvValue number(const PandasNumber& value);
  static CsvValue boolean(bool value) { return CsvValue(value ? "True" : "False"); }
  static CsvValue text(std::string value) { return CsvValue(std::move(value)); }

  const std::string& str() const { return text_; }

 private:
  explicit CsvValue(std::string text) : text_(std::move(text)) {}
  std::string text_;
};

// Python csv QUOTE_MINIMAL: quoted when it holds a comma, a double quote, \n or \r; embedded
// quotes doubled.
std::string csv_quote(std::string_view field);

// Accumulates a whole CSV document: header first, then rows of exactly that many cells.
class PandasCsvWriter {
 public:
  explicit PandasCsvWriter(const std::vector<std::string>& columns);
  void add_row(const std::vector<CsvValue>& cells);  // throws std::invalid_argument on a bad width
  const std::string& text() const { return text_; }
  std::size_t column_count() const { return columns_; }

 private:
  void append_line(const std::vector<std::string_view>& fields);
  std::size_t columns_ = 0;
  std::string text_;
};

}  // namespace loupe::core::prepare
