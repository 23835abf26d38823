// gpu_timeline.csv as the analysis step reads it: the `type` and `time ms` columns, the
// memcpy denominator (first `total_time` row, spec §4.2) and the cross-validation lookup
// (last row wins per type, spec §4.6).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "loupe/json_value.hpp"
#include "py_number.hpp"

namespace loupe::multi_kernel {

// A CSV table as text cells (what the host model holds), independent of the host.
struct RawTable {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;
};

struct Timeline {
  std::string file;               // e.g. "perf_report_csvs/gpu_timeline.csv"
  bool readable = false;          // present, parsed, and has a `type` column
  std::string unreadable_reason;  // why not, when !readable
  bool has_time_column = false;
  struct Row {
    std::string type;
    PyNumber time_ms;  // int when pandas would type the whole column as int64
    bool empty_time = false;
  };
  std::vector<Row> rows;
};

// Builds the timeline view. `table` is null when the file is missing or failed to load
// (`reason` says why). A non-numeric `time ms` cell is an InputProblem.
Timeline read_timeline(const std::string& file, const RawTable* table, const std::string& reason);

struct TotalTime {
  enum class Source { TimelineRow, NoTotalRow, Fallback };
  PyNumber ms;
  Source source = Source::NoTotalRow;
};

// Spec §4.2: first `total_time` row; 0 (int) when there is none; only when the CSV cannot
// be read (or the row has no `time ms`) the fallback overlap.total_time_us / 1000.
TotalTime timeline_total_time(const Timeline& timeline, const Json& overlap);

// Spec §4.6 lookup: type -> row (time ms 0 when the column is absent), last row wins; nullopt when
// the CSV cannot be read.
std::optional<std::map<std::string, Timeline::Row>> timeline_by_type(const Timeline& timeline);

}  // namespace loupe::multi_kernel
