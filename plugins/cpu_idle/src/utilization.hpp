// What TraceLens's CPU/idle script reports: the GPU utilization rows of gpu_timeline.csv and the
// kernel pattern counts of ops_summary.csv, with Python's number types (an int column stays int,
// round() half-even on the binary value), so that the compat metrics are byte-identical.
#pragma once

#include <optional>
#include <string>

#include "loupe/json_value.hpp"
#include "loupe/layout.hpp"
#include "loupe/model.hpp"

namespace loupe::cpu_idle {

inline constexpr const char* kManifestFile = layout::kManifest;

struct Utilization {
  std::string timeline_file;  // perf_report_csvs/gpu_timeline.csv (trace 1 when comparative)
  std::string problem;        // non-empty: the timeline cannot be used (ERROR)
  bool has_nan = false;       // a value the metrics use is NaN (empty cell)
  std::string nan_where;      // which one, for the default mode's ERROR
  Json total_time_ms;         // Python numbers as read (int or float), before rounding
  Json idle_time_ms;
  Json idle_percent;
  Json computation_percent;
  Json communication_percent;
  Json memcpy_percent;
  bool idle_flagged = false;    // idle_percent > 15
  Json kernel_analysis;         // TraceLens's kernel pattern block
  bool kernel_columns = false;  // ops_summary.csv has the kernel-time columns TraceLens reads
};

// `comparative`: the manifest's comparison_scope says so (TraceLens reads trace 1's CSVs).
Utilization read_utilization(const ModelView& model);

// TraceLens's metrics document for an OK run.
Json tracelens_metrics(const Utilization& u);
// TraceLens's ERROR document.
Json tracelens_error_metrics(const std::string& message);

// Python round(x, n) of a Json number: ints stay ints.
Json py_round(const Json& value, int ndigits);
double number(const Json& value);

}  // namespace loupe::cpu_idle
