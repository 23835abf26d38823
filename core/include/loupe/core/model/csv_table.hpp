// A parsed CSV file (RFC 4180): a header row and typed cells.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace loupe::core {

// A cell to build a table from (owns its text).
struct CsvCell {
  enum class Kind : std::uint8_t { Empty, Number, Text };
  Kind kind = Kind::Empty;
  double number = 0.0;  // set when kind == Number (Python float() of the text)
  std::string text;     // unquoted field text
};

// A cell of a CsvTable. Its text is NUL-terminated (text.data()[text.size()] == '\0') and
// stays valid as long as the table is not changed.
struct CsvCellView {
  CsvCell::Kind kind = CsvCell::Kind::Empty;
  double number = 0.0;
  std::string_view text;
};

// A cell is 16 bytes: its number and a pointer to its text record in one of a few large blocks
// (the kind and length, then the text and a NUL), so a table of millions of cells costs a few
// allocations to build and to free, and never copies its texts while it grows. Equal texts of a
// column share one record while the column repeats itself (kernel names, op names, call stacks);
// a column whose texts are mostly distinct (ids, times) stops being looked up
// (docs/performance.md, "Big traces").
class CsvTable {
 public:
  CsvTable();
  CsvTable(std::vector<std::string> header, const std::vector<CsvCell>& cells);
  // A table without rows, filled row-major with add_cell.
  explicit CsvTable(std::vector<std::string> header);
  CsvTable(const CsvTable& other);
  CsvTable& operator=(const CsvTable& other);
  CsvTable(CsvTable&&) noexcept;
  CsvTable& operator=(CsvTable&&) noexcept;
  ~CsvTable();

  // Room for `cells` more cells holding `text_bytes` more bytes of text.
  void reserve(size_t cells, size_t text_bytes);
  // Appends one cell; a row is complete after column_count() cells. Throws std::length_error
  // for a text of 1 GiB or more.
  void add_cell(CsvCell::Kind kind, double number, std::string_view text);
  void add_empty() { add_cell(CsvCell::Kind::Empty, 0.0, {}); }
  void add_text(std::string_view text) { add_cell(CsvCell::Kind::Text, 0.0, text); }
  void add_number(double number, std::string_view text) {
    add_cell(CsvCell::Kind::Number, number, text);
  }

  size_t row_count() const { return columns_.empty() ? 0 : cells_.size() / columns_.size(); }
  size_t column_count() const { return columns_.size(); }
  const std::string& column_name(size_t column) const { return columns_.at(column); }
  // The index of the first column named `name`; nullopt when there is none.
  std::optional<size_t> find_column(std::string_view name) const;
  CsvCellView cell(size_t row, size_t column) const {
    const Packed& p = cells_.at(row * columns_.size() + column);
    CsvCellView view = decode(p.record);
    view.number = p.number;
    return view;
  }

 private:
  // A text record: one byte (kind in bits 0-1, size in bits 2-7), or that byte with size
  // kLongText followed by the size as 4 bytes; then the text and a NUL.
  static constexpr std::uint32_t kLongText = 63;
  struct Packed {
    const char* record;
    double number;
  };
  class TextIndex;

  // The kind and text of a record (number 0).
  static CsvCellView decode(const char* record) {
    const unsigned head = static_cast<unsigned char>(record[0]);
    std::uint32_t size = head >> 2;
    const char* text = record + 1;
    if (size == kLongText) {
      std::memcpy(&size, text, sizeof size);
      text += sizeof size;
    }
    return {static_cast<CsvCell::Kind>(head & 3U), 0.0, std::string_view(text, size)};
  }

  // The record of (kind, text), shared with an equal earlier text of `column` when the column
  // still repeats itself.
  const char* record_of(CsvCell::Kind kind, std::string_view text, size_t column);
  const char* store(CsvCell::Kind kind, std::string_view text);

  std::vector<std::string> columns_;
  std::vector<Packed> cells_;  // row-major
  std::vector<std::unique_ptr<char[]>> blocks_;
  size_t block_size_ = 0;  // of blocks_.back()
  size_t block_used_ = 0;
  std::unique_ptr<TextIndex> index_;
};

// Parses CSV text. Quoted fields may hold commas, doubled quotes and newlines; CRLF and LF end
// records; a UTF-8 byte-order mark is skipped; short rows are padded with empty cells.
// Throws std::runtime_error naming the line of a malformed record (unterminated quote, a row
// longer than the header).
CsvTable parse_csv(std::string_view text);

}  // namespace loupe::core
