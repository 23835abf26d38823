// Reads the raw-trace views (trace/gpu_events.csv, trace/host_calls.csv; docs/writing-a-plugin.md
// §4) into the attribution's inputs.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gap_attribution.hpp"
#include "step_variation.hpp"

namespace loupe::cpu_idle {

inline constexpr const char* kGpuEventsView = "trace/gpu_events.csv";
inline constexpr const char* kHostCallsView = "trace/host_calls.csv";

// A CSV view's text cells, independent of where they live: the host model's table, read in
// place (plugin.cpp), or a test's TextTable.
class TableSource {
 public:
  static constexpr size_t npos = static_cast<size_t>(-1);
  virtual ~TableSource() = default;
  virtual size_t row_count() const = 0;
  virtual size_t column(std::string_view name) const = 0;  // npos when absent
  // "" for a cell out of range or in the npos column.
  virtual std::string_view cell(size_t row, size_t column) const = 0;
};

// A CSV view as owned text cells.
struct TextTable : TableSource {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;
  size_t row_count() const override { return rows.size(); }
  size_t column(std::string_view name) const override;
  std::string_view cell(size_t row, size_t column) const override;
};

inline constexpr const char* kRecordingWindowView = "trace/recording_window.json";

// GPU work on one side of the recording window (core's trace/recording_window.json).
struct OutsideWindow {
  std::int64_t ops = 0;
  std::int64_t busy_ns = 0;
  std::int64_t first_ns = 0;
  std::int64_t last_end_ns = 0;
  std::int64_t correlation_evidence = 0;  // launched while the host was not recorded
};

// The analysis window of the run (docs/report.md, "Recording window"): the idle breakdown
// covers the GPU ops starting in [start_ns, end_ns), the window gpu_timeline.csv measures.
struct RecordingWindow {
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  OutsideWindow before;
  OutsideWindow after;
};

struct TraceInputs {
  bool present = false;  // false: the run did not start from a raw trace
  std::string problem;   // a view is malformed: "<file>: <problem>"
  std::vector<GpuOp> ops;
  std::vector<HostCall> calls;
  std::optional<RecordingWindow> window;   // nullopt: no window view (every op is analyzed)
  std::optional<StepVariation> variation;  // trace/steps.json names slow steps
};

// Drops the ops starting outside the window (they were counted in it as outside work).
void keep_window(TraceInputs& in);

// `gpu_events` null: no raw trace. `host_calls` null: no host-call view (no sync attribution).
// The ops and calls view the tables' cells: the tables must outlive them.
TraceInputs read_trace_inputs(const TableSource* gpu_events, const TableSource* host_calls);

}  // namespace loupe::cpu_idle
