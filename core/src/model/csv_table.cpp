#include "loupe/core/csv_table.hpp"

#include <stdexcept>
#include <utility>

#include "loupe/python_format.hpp"

namespace loupe::core {

CsvTable::CsvTable(std::vector<std::string> header, std::vector<CsvCell> cells)
    : columns_(std::move(header)), cells_(std::move(cells)) {}

namespace {

// Splits CSV text into records of raw field strings.
class CsvRecordReader {
 public:
  explicit CsvRecordReader(std::string_view text) : text_(text) {
    if (text_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;
  }

  bool at_end() const { return pos_ >= text_.size(); }
  size_t line() const { return line_; }

  // Reads one record. Returns false at end of input.
  bool next(std::vector<std::string>& fields) {
    fields.clear();
    if (at_end()) return false;
    record_line_ = line_;
    std::string field;
    while (true) {
      if (pos_ < text_.size() && text_[pos_] == '"') {
        read_quoted(field);
      } else {
        while (pos_ < text_.size() && text_[pos_] != ',' && text_[pos_] != '\n' &&
               text_[pos_] != '\r') {
          field.push_back(text_[pos_++]);
        }
      }
      fields.push_back(std::move(field));
      field.clear();
      if (pos_ >= text_.size()) return true;
      const char c = text_[pos_];
      if (c == ',') {
        ++pos_;
        continue;
      }
      // End of record: \n, \r\n or \r.
      ++pos_;
      if (c == '\r' && pos_ < text_.size() && text_[pos_] == '\n') ++pos_;
      ++line_;
      return true;
    }
  }
  size_t record_line() const { return record_line_; }

 private:
  void read_quoted(std::string& field) {
    const size_t start_line = line_;
    ++pos_;  // opening quote
    while (true) {
      if (pos_ >= text_.size()) {
        throw std::runtime_error("unterminated quoted field starting on line " +
                                 std::to_string(start_line));
      }
      const char c = text_[pos_++];
      if (c == '"') {
        if (pos_ < text_.size() && text_[pos_] == '"') {
          field.push_back('"');
          ++pos_;
          continue;
        }
        break;
      }
      if (c == '\n') ++line_;
      field.push_back(c);
    }
    // Text after the closing quote up to the delimiter is kept (lenient, like Python's csv).
    while (pos_ < text_.size() && text_[pos_] != ',' && text_[pos_] != '\n' &&
           text_[pos_] != '\r') {
      field.push_back(text_[pos_++]);
    }
  }

  std::string_view text_;
  size_t pos_ = 0;
  size_t line_ = 1;
  size_t record_line_ = 1;
};

CsvCell make_cell(std::string text) {
  CsvCell cell;
  if (text.empty()) {
    cell.kind = CsvCell::Kind::Empty;
  } else if (double value = 0.0; py::parse_float(text, value)) {
    cell.kind = CsvCell::Kind::Number;
    cell.number = value;
  } else {
    cell.kind = CsvCell::Kind::Text;
  }
  cell.text = std::move(text);
  return cell;
}

bool is_blank_record(const std::vector<std::string>& fields) {
  return fields.size() == 1 && fields[0].empty();
}

}  // namespace

std::optional<size_t> CsvTable::find_column(std::string_view name) const {
  for (size_t c = 0; c < columns_.size(); ++c) {
    if (columns_[c] == name) return c;
  }
  return std::nullopt;
}

CsvTable parse_csv(std::string_view text) {
  CsvRecordReader reader(text);
  std::vector<std::string> header;
  std::vector<std::string> fields;
  // The header is the first non-blank record.
  while (reader.next(fields)) {
    if (!is_blank_record(fields)) {
      header = fields;
      break;
    }
  }
  if (header.empty()) return {};

  std::vector<CsvCell> cells;
  while (reader.next(fields)) {
    if (is_blank_record(fields)) continue;  // pandas skips blank lines
    if (fields.size() > header.size()) {
      throw std::runtime_error("line " + std::to_string(reader.record_line()) + " has " +
                               std::to_string(fields.size()) + " fields but the header has " +
                               std::to_string(header.size()));
    }
    for (size_t c = 0; c < header.size(); ++c) {
      cells.push_back(make_cell(c < fields.size() ? std::move(fields[c]) : std::string()));
    }
  }
  return {std::move(header), std::move(cells)};
}

}  // namespace loupe::core
