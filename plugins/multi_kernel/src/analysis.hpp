// The multi-kernel analysis as a pure function: input documents in, metrics JSON and
// structured findings out. The plugin (plugin.cpp) only moves data between the host model
// and these types, so the whole analysis is testable without a host.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "assessments.hpp"
#include "input_values.hpp"
#include "loupe/findings.hpp"
#include "loupe/json_value.hpp"
#include "sync_idle.hpp"
#include "timeline.hpp"

namespace loupe::multi_kernel {

struct AnalysisInputs {
  std::optional<Json> data;     // multi_kernel_data.json; nullopt when absent or unloadable
  std::string data_load_error;  // set when the file exists but could not be parsed
  std::optional<Json> manifest;
  // The host link's peak per direction (metadata `peak_host_link_gbps`, default mode).
  std::optional<double> host_link_gbps;
  std::string manifest_load_error;
  std::map<std::string, RawTable> tables;  // "perf_report_csvs/gpu_timeline.csv", ...
  std::map<std::string, std::string> table_load_errors;
  std::optional<RawTable> gpu_events;    // trace/gpu_events.csv, when the run started from a trace
  std::optional<Json> cpu_idle_metrics;  // this run's cpu_idle result, when it ran first
};

struct AnalysisOptions {
  bool compat = false;              // --compat tracelens
  Scope scope = Scope::Standalone;  // the host's scope (manifest or --scope)
  std::string workload;             // "training" | "inference" | "" (from --workload)
  // Set when the host detected the workload from the trace (model property workload_evidence).
  std::string workload_evidence;
};

enum class WorkloadMode { Training, Inference };
struct WorkloadChoice {
  WorkloadMode mode = WorkloadMode::Training;
  std::string source;  // a clause saying where the mode came from
};

struct Pattern {
  std::string id;
  std::string description;
  std::string direction;  // memcpy patterns only
};

// Everything the analysis concluded; the metrics JSON and the findings are views of it.
struct AnalysisResult {
  bool corrected = false;
  Scope scope = Scope::Standalone;
  WorkloadChoice workload;
  Timeline timeline;
  PyNumber timeline_total_ms;  // §4.2 value (TraceLens's denominator)
  TotalTime::Source timeline_source = TotalTime::Source::NoTotalRow;
  std::optional<double> all_events_span_ms;  // overlap_analysis.total_time_us / 1000
  PyNumber denominator_ms;                   // the memcpy denominator actually used
  std::string denominator_population;        // all_gpu_events | linked_gpu_events | none
  MemcpyAssessment memcpy;
  BlockingAssessment blocking;
  OverlapAssessment overlap;
  CrossValidation cross;
  std::vector<Pattern> patterns;
  PyNumber comm_kernel_count;
  double comm_kernel_sum_ms = 0.0;
  std::string longest_comm_kernel;
  double longest_comm_kernel_us = 0.0;
  SyncIdle sync_idle;  // default mode, standalone (docs/deviations.md S1)
};

struct AnalysisOutput {
  Json metrics;
  findings::Document findings;
};

AnalysisOutput run_analysis(const AnalysisInputs& inputs, const AnalysisOptions& options);

// Pieces, exposed for tests.
WorkloadChoice choose_workload(const std::optional<Json>& manifest, const std::string& option,
                               const std::string& evidence = {});
std::vector<Pattern> detect_patterns(const AnalysisResult& result);
Json build_success_metrics(const DataSections& sections, const AnalysisResult& result);

}  // namespace loupe::multi_kernel
