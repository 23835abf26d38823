#include "loupe/core/model/csv_table.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <utility>

#include "loupe/python_format.hpp"

namespace loupe::core {

namespace {

constexpr size_t kFirstBlockBytes = 4096;
constexpr size_t kMaxBlockBytes = size_t{1} << 20;

}  // namespace

CsvTable::CsvTable(std::vector<std::string> header) : columns_(std::move(header)) {}

CsvTable::CsvTable(std::vector<std::string> header, const std::vector<CsvCell>& cells)
    : CsvTable(std::move(header)) {
  size_t bytes = 0;
  for (const CsvCell& cell : cells) bytes += cell.text.size() + 1;
  reserve(cells.size(), bytes);
  for (const CsvCell& cell : cells) add_cell(cell.kind, cell.number, cell.text);
}

CsvTable::CsvTable(const CsvTable& other) : columns_(other.columns_) {
  size_t bytes = 0;
  for (const Packed& p : other.cells_) bytes += p.size + 1;
  reserve(other.cells_.size(), bytes);
  for (const Packed& p : other.cells_) add_cell(p.kind, p.number, {p.text, p.size});
}

CsvTable& CsvTable::operator=(const CsvTable& other) {
  if (this != &other) *this = CsvTable(other);
  return *this;
}

void CsvTable::reserve(size_t cells, size_t text_bytes) {
  cells_.reserve(cells_.size() + cells);
  if (text_bytes > block_size_ - block_used_) {
    blocks_.push_back(std::make_unique_for_overwrite<char[]>(text_bytes));
    block_size_ = text_bytes;
    block_used_ = 0;
  }
}

const char* CsvTable::store(std::string_view text) {
  const size_t need = text.size() + 1;
  if (need > block_size_ - block_used_) {
    // Blocks grow with the table, up to kMaxBlockBytes; a longer text gets a block of its own.
    const size_t grown = std::min(std::max(kFirstBlockBytes, block_size_ * 2), kMaxBlockBytes);
    const size_t size = std::max(need, grown);
    blocks_.push_back(std::make_unique_for_overwrite<char[]>(size));
    block_size_ = size;
    block_used_ = 0;
  }
  char* out = blocks_.back().get() + block_used_;
  std::memcpy(out, text.data(), text.size());
  out[text.size()] = '\0';
  block_used_ += need;
  return out;
}

void CsvTable::add_cell(CsvCell::Kind kind, double number, std::string_view text) {
  if (text.size() > std::numeric_limits<std::uint32_t>::max()) {
    throw std::length_error("a CSV field of 4 GiB or more");
  }
  Packed cell;
  cell.number = number;
  cell.kind = kind;
  cell.size = static_cast<std::uint32_t>(text.size());
  if (!text.empty()) cell.text = store(text);
  cells_.push_back(cell);
}

namespace {

// Splits CSV text into records of raw field strings.
class CsvRecordReader {
 public:
  explicit CsvRecordReader(std::string_view text) : text_(text) {
    if (text_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;
  }

  bool at_end() const { return pos_ >= text_.size(); }
  size_t line() const { return line_; }

  // Reads one record (reusing the strings of `fields`). Returns false at end of input.
  bool next(std::vector<std::string>& fields) {
    if (at_end()) {
      fields.clear();
      return false;
    }
    record_line_ = line_;
    size_t count = 0;
    while (true) {
      if (count == fields.size()) fields.emplace_back();
      std::string& field = fields[count++];
      field.clear();
      if (pos_ < text_.size() && text_[pos_] == '"') {
        read_quoted(field);
      } else {
        const size_t start = pos_;
        while (pos_ < text_.size() && text_[pos_] != ',' && text_[pos_] != '\n' &&
               text_[pos_] != '\r') {
          ++pos_;
        }
        field.assign(text_.substr(start, pos_ - start));
      }
      if (pos_ >= text_.size()) break;
      const char c = text_[pos_];
      if (c == ',') {
        ++pos_;
        continue;
      }
      // End of record: \n, \r\n or \r.
      ++pos_;
      if (c == '\r' && pos_ < text_.size() && text_[pos_] == '\n') ++pos_;
      ++line_;
      break;
    }
    fields.resize(count);
    return true;
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

void add_parsed_cell(CsvTable& table, std::string_view text) {
  if (text.empty()) {
    table.add_empty();
  } else if (double value = 0.0; py::parse_float(text, value)) {
    table.add_number(value, text);
  } else {
    table.add_text(text);
  }
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

  CsvTable table(std::move(header));
  const size_t columns = table.column_count();
  table.reserve(0, text.size() + 1);  // every field and its NUL fit in the text's bytes
  while (reader.next(fields)) {
    if (is_blank_record(fields)) continue;  // pandas skips blank lines
    if (fields.size() > columns) {
      throw std::runtime_error("line " + std::to_string(reader.record_line()) + " has " +
                               std::to_string(fields.size()) + " fields but the header has " +
                               std::to_string(columns));
    }
    for (size_t c = 0; c < columns; ++c) {
      add_parsed_cell(table, c < fields.size() ? std::string_view(fields[c]) : std::string_view());
    }
  }
  return table;
}

}  // namespace loupe::core
