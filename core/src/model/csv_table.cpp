#include "loupe/core/model/csv_table.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
#include <limits>
#include <stdexcept>
#include <utility>

#include "loupe/python_format.hpp"

namespace loupe::core {

namespace {

constexpr size_t kFirstBlockBytes = 4096;
constexpr size_t kMaxBlockBytes = size_t{1} << 20;
constexpr size_t kMaxTextBytes = (size_t{1} << 30) - 1;

// The records of the empty text, one per kind (Empty, Number, Text): the head byte is the kind.
constexpr char kEmptyRecords[3][2] = {{0, 0}, {1, 0}, {2, 0}};

// A column's texts are looked up while one in kMinHitShare of them, over its first kProbeTexts,
// was already there.
constexpr std::uint32_t kProbeTexts = 512;
constexpr std::uint32_t kMinHitShare = 8;

}  // namespace

// The texts stored so far, by (kind, text): open addressing over a power-of-two table.
class CsvTable::TextIndex {
 public:
  explicit TextIndex(size_t columns) : columns_(columns) {}

  // Whether `column` is still looked up.
  bool active(size_t column) const { return column >= columns_.size() || !columns_[column].off; }

  // The record equal to (kind, text), or nullptr; counts the lookup for `column`.
  const char* find(size_t hash, CsvCell::Kind kind, std::string_view text, size_t column) {
    const char* found = nullptr;
    if (!slots_.empty()) {
      for (size_t i = hash & (slots_.size() - 1);; i = (i + 1) & (slots_.size() - 1)) {
        const Slot& slot = slots_[i];
        if (slot.record == nullptr) break;
        if (slot.hash != hash) continue;
        const CsvCellView v = decode(slot.record);
        if (v.kind == kind && v.text == text) {
          found = slot.record;
          break;
        }
      }
    }
    count(column, found != nullptr);
    return found;
  }

  void insert(size_t hash, const char* record) {
    if ((used_ + 1) * 2 > slots_.size()) grow();
    place(hash, record);
    ++used_;
  }

 private:
  struct Slot {
    const char* record = nullptr;
    size_t hash = 0;
  };
  struct ColumnStats {
    std::uint32_t lookups = 0;
    std::uint32_t hits = 0;
    bool off = false;
  };

  void count(size_t column, bool hit) {
    if (column >= columns_.size()) return;
    ColumnStats& stats = columns_[column];
    ++stats.lookups;
    if (hit) ++stats.hits;
    if (stats.lookups == kProbeTexts && stats.hits * kMinHitShare < stats.lookups) {
      stats.off = true;
    }
  }
  void place(size_t hash, const char* record) {
    size_t i = hash & (slots_.size() - 1);
    while (slots_[i].record != nullptr) i = (i + 1) & (slots_.size() - 1);
    slots_[i] = {record, hash};
  }
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(std::max<size_t>(64, old.size() * 2), Slot{});
    for (const Slot& slot : old) {
      if (slot.record != nullptr) place(slot.hash, slot.record);
    }
  }

  std::vector<ColumnStats> columns_;
  std::vector<Slot> slots_;
  size_t used_ = 0;
};

CsvTable::CsvTable() = default;
CsvTable::CsvTable(CsvTable&&) noexcept = default;
CsvTable& CsvTable::operator=(CsvTable&&) noexcept = default;
CsvTable::~CsvTable() = default;

CsvTable::CsvTable(std::vector<std::string> header) : columns_(std::move(header)) {}

CsvTable::CsvTable(std::vector<std::string> header, const std::vector<CsvCell>& cells)
    : CsvTable(std::move(header)) {
  size_t bytes = 0;
  for (const CsvCell& cell : cells) bytes += cell.text.size() + 2;
  reserve(cells.size(), bytes);
  for (const CsvCell& cell : cells) add_cell(cell.kind, cell.number, cell.text);
}

CsvTable::CsvTable(const CsvTable& other) : columns_(other.columns_) {
  reserve(other.cells_.size(), 0);
  for (const Packed& p : other.cells_) {
    const CsvCellView v = decode(p.record);
    add_cell(v.kind, p.number, v.text);
  }
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

const char* CsvTable::store(CsvCell::Kind kind, std::string_view text) {
  const bool long_text = text.size() >= kLongText;
  const size_t head = long_text ? 1 + sizeof(std::uint32_t) : 1;
  const size_t need = head + text.size() + 1;
  if (need > block_size_ - block_used_) {
    // Blocks grow with the table, up to kMaxBlockBytes; a longer text gets a block of its own.
    const size_t grown = std::min(std::max(kFirstBlockBytes, block_size_ * 2), kMaxBlockBytes);
    const size_t size = std::max(need, grown);
    blocks_.push_back(std::make_unique_for_overwrite<char[]>(size));
    block_size_ = size;
    block_used_ = 0;
  }
  char* out = blocks_.back().get() + block_used_;
  const auto size = static_cast<std::uint32_t>(text.size());
  const std::uint32_t small = long_text ? kLongText : size;
  out[0] = static_cast<char>((small << 2) | static_cast<std::uint32_t>(kind));
  if (long_text) std::memcpy(out + 1, &size, sizeof size);
  std::memcpy(out + head, text.data(), text.size());
  out[head + text.size()] = '\0';
  block_used_ += need;
  return out;
}

const char* CsvTable::record_of(CsvCell::Kind kind, std::string_view text, size_t column) {
  if (!index_) index_ = std::make_unique<TextIndex>(columns_.size());
  if (!index_->active(column)) return store(kind, text);
  const size_t hash = std::hash<std::string_view>{}(text) ^ static_cast<size_t>(kind);
  if (const char* found = index_->find(hash, kind, text, column)) return found;
  const char* record = store(kind, text);
  index_->insert(hash, record);
  return record;
}

void CsvTable::add_cell(CsvCell::Kind kind, double number, std::string_view text) {
  if (text.size() > kMaxTextBytes) throw std::length_error("a CSV field of 1 GiB or more");
  const size_t column = columns_.empty() ? 0 : cells_.size() % columns_.size();
  const char* record =
      text.empty() ? kEmptyRecords[static_cast<size_t>(kind)] : record_of(kind, text, column);
  cells_.push_back({record, number});
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
  // Every field with its head byte and NUL fits in twice the text's bytes; the pages of the
  // block that stay unused are never touched.
  table.reserve(0, 2 * text.size() + 1);
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
