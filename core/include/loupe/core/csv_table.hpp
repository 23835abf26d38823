// A parsed CSV file (RFC 4180): a header row and typed cells.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace loupe::core {

struct CsvCell {
  enum class Kind : std::uint8_t { Empty, Number, Text };
  Kind kind = Kind::Empty;
  double number = 0.0;  // set when kind == Number (Python float() of the text)
  std::string text;     // unquoted field text
};

class CsvTable {
 public:
  CsvTable() = default;
  CsvTable(std::vector<std::string> header, std::vector<CsvCell> cells);

  size_t row_count() const { return columns_.empty() ? 0 : cells_.size() / columns_.size(); }
  size_t column_count() const { return columns_.size(); }
  const std::string& column_name(size_t column) const { return columns_.at(column); }
  // The index of the first column named `name`; nullopt when there is none.
  std::optional<size_t> find_column(std::string_view name) const;
  const CsvCell& cell(size_t row, size_t column) const {
    return cells_.at(row * columns_.size() + column);
  }

 private:
  std::vector<std::string> columns_;
  std::vector<CsvCell> cells_;  // row-major
};

// Parses CSV text. Quoted fields may hold commas, doubled quotes and newlines; CRLF and LF end
// records; a UTF-8 byte-order mark is skipped; short rows are padded with empty cells.
// Throws std::runtime_error naming the line of a malformed record (unterminated quote, a row
// longer than the header).
CsvTable parse_csv(std::string_view text);

}  // namespace loupe::core
