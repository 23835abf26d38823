#include "timeline.hpp"

#include <cmath>
#include <cstdlib>

#include "input_values.hpp"
#include "loupe/python_format.hpp"

namespace loupe::multi_kernel {

namespace {

constexpr size_t kNoColumn = static_cast<size_t>(-1);

size_t find_column(const RawTable& table, const std::string& name) {
  for (size_t c = 0; c < table.columns.size(); ++c) {
    if (table.columns[c] == name) return c;
  }
  return kNoColumn;
}

std::string cell_text(const RawTable& table, size_t row, size_t column) {
  if (column == kNoColumn || column >= table.rows[row].size()) return {};
  return table.rows[row][column];
}

bool is_int_literal(const std::string& text) {
  size_t i = (!text.empty() && (text[0] == '+' || text[0] == '-')) ? 1 : 0;
  if (i >= text.size()) return false;
  for (; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
  }
  return true;
}

}  // namespace

Timeline read_timeline(const std::string& file, const RawTable* table, const std::string& reason) {
  Timeline timeline;
  timeline.file = file;
  if (table == nullptr) {
    timeline.unreadable_reason = reason;
    return timeline;
  }
  const size_t type_column = find_column(*table, "type");
  if (type_column == kNoColumn) {
    timeline.unreadable_reason = file + " has no 'type' column";
    return timeline;
  }
  timeline.readable = true;
  const size_t time_column = find_column(*table, "time ms");
  timeline.has_time_column = time_column != kNoColumn;

  // pandas types the column as int64 only when every cell is an integer literal.
  bool all_int = true;
  for (size_t r = 0; r < table->rows.size(); ++r) {
    all_int = all_int && is_int_literal(cell_text(*table, r, time_column));
  }
  for (size_t r = 0; r < table->rows.size(); ++r) {
    Timeline::Row row;
    row.type = cell_text(*table, r, type_column);
    if (timeline.has_time_column) {
      const std::string text = cell_text(*table, r, time_column);
      double value = 0.0;
      if (text.empty()) {
        row.empty_time = true;
        row.time_ms = PyNumber::real(std::nan(""));
      } else if (!py::parse_float(text, value)) {
        throw InputProblem(file + ": 'time ms' on data row " + std::to_string(r + 1) + " is '" +
                           text + "', expected a number");
      } else if (all_int) {
        row.time_ms = PyNumber::integer(std::strtoll(text.c_str(), nullptr, 10));
      } else {
        row.time_ms = PyNumber::real(value);
      }
    }
    timeline.rows.push_back(std::move(row));
  }
  return timeline;
}

namespace {

void require_time(const Timeline& timeline, const Timeline::Row& row) {
  if (row.empty_time) {
    throw InputProblem(timeline.file + ": 'time ms' of the '" + row.type +
                       "' row is empty (NaN), expected a number");
  }
}

}  // namespace

TotalTime timeline_total_time(const Timeline& timeline, const Json& overlap) {
  TotalTime total;
  if (timeline.readable) {
    const Timeline::Row* first_total = nullptr;
    for (const auto& row : timeline.rows) {
      if (row.type == "total_time") {
        first_total = &row;
        break;
      }
    }
    if (first_total == nullptr) {
      total.ms = PyNumber::integer(0);
      total.source = TotalTime::Source::NoTotalRow;
      return total;
    }
    if (timeline.has_time_column) {  // else: KeyError in Python -> fallback below
      require_time(timeline, *first_total);
      total.ms = first_total->time_ms;
      total.source = TotalTime::Source::TimelineRow;
      return total;
    }
  }
  const PyNumber span_us = number_member(overlap, "total_time_us", PyNumber::integer(0),
                                         std::string(kDataFile) + ": overlap_analysis");
  total.ms = PyNumber::real(py_div(span_us, 1000.0));
  total.source = TotalTime::Source::Fallback;
  return total;
}

std::optional<std::map<std::string, Timeline::Row>> timeline_by_type(const Timeline& timeline) {
  if (!timeline.readable) return std::nullopt;
  std::map<std::string, Timeline::Row> by_type;
  for (const auto& row : timeline.rows) {
    Timeline::Row entry = row;
    if (!timeline.has_time_column) entry.time_ms = PyNumber::integer(0);
    by_type[row.type] = entry;
  }
  return by_type;
}

}  // namespace loupe::multi_kernel
