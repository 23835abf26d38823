// The CPU/idle analyzer plugin (system tier, category cpu_idle): reads the model, runs the
// analysis, emits the metrics and findings documents.
#include <algorithm>
#include <array>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis.hpp"
#include "loupe/plugin.hpp"

namespace {

namespace ci = loupe::cpu_idle;

// The view's cells as text, only the columns `keep` names (in the view's order): copying the
// other columns of a row per GPU op cost as much as the analysis on big traces
// (docs/performance.md, "Big traces").
std::optional<ci::TextTable> copy_table(const loupe::TableView& table,
                                        std::initializer_list<std::string_view> keep) {
  if (!table) return std::nullopt;
  ci::TextTable raw;
  std::vector<size_t> source;
  for (size_t c = 0; c < table.columns(); ++c) {
    const std::string name(table.column_name(c));
    if (std::find(keep.begin(), keep.end(), name) == keep.end()) continue;
    raw.columns.push_back(name);
    source.push_back(c);
  }
  raw.rows.reserve(table.rows());
  for (size_t r = 0; r < table.rows(); ++r) {
    std::vector<std::string> row;
    row.reserve(source.size());
    for (const size_t c : source) row.emplace_back(table.cell(r, c).text);
    raw.rows.push_back(std::move(row));
  }
  return raw;
}

ci::OutsideWindow read_outside(const loupe::JsonView& side) {
  ci::OutsideWindow w;
  w.ops = side["ops"].as_int();
  w.busy_ns = side["busy_ns"].as_int();
  w.first_ns = side["first_ns"].as_int();
  w.last_end_ns = side["last_end_ns"].as_int();
  w.correlation_evidence = side["correlation_evidence"].as_int();
  return w;
}

// The run's analysis window (trace/recording_window.json), when the host computed one.
std::optional<ci::RecordingWindow> read_window(const loupe::JsonView& doc) {
  if (!doc.is_object() || !doc["start_ns"].is_int() || !doc["end_ns"].is_int()) {
    return std::nullopt;
  }
  ci::RecordingWindow w;
  w.start_ns = doc["start_ns"].as_int();
  w.end_ns = doc["end_ns"].as_int();
  if (w.end_ns < w.start_ns) return std::nullopt;
  w.before = read_outside(doc["before"]);
  w.after = read_outside(doc["after"]);
  return w;
}

class CpuIdleAnalyzer {
 public:
  static constexpr const char* name = "cpu_idle";
  static constexpr const char* version = "1.0.0";
  static constexpr const char* description =
      "GPU idle time: TraceLens's utilization report, and from a raw trace its split into "
      "launch overhead, synchronization and host work";
  static constexpr loupe::Tier tier = loupe::Tier::System;
  static constexpr std::array<const char*, 1> categories{"cpu_idle"};
  static constexpr std::array<const char*, 1> skills{"cpu-idle-analyzer"};
  static constexpr std::array<const char*, 0> reads{};

  void analyze(loupe::AnalysisContext& ctx) {
    const loupe::ModelView model = ctx.model();
    ci::AnalysisOptions options;
    options.compat = ctx.tracelens_compat();
    options.scope = ctx.scope();
    // The columns read_trace_inputs reads (trace_inputs.cpp).
    const auto gpu = copy_table(
        model.table(ci::kGpuEventsView),
        {"kind", "name", "device", "ts_ns", "dur_ns", "launcher_name", "op_name",
         "memcpy_direction", "launcher_ts_ns", "launcher_dur_ns", "launcher_tid", "op_stack"});
    const auto calls =
        copy_table(model.table(ci::kHostCallsView),
                   {"kind", "name", "tid", "ts_ns", "dur_ns", "op_name", "op_stack"});
    auto trace = ci::read_trace_inputs(gpu ? &*gpu : nullptr, calls ? &*calls : nullptr);
    trace.window = read_window(model.document(ci::kRecordingWindowView));
    if (const loupe::JsonView steps = model.document(ci::kStepsView)) {
      trace.variation = ci::read_step_variation(steps.to_json());
    }
    const ci::AnalysisOutput out =
        ci::run_analysis(ci::read_utilization(model), std::move(trace), options);
    if (out.error) ctx.log(loupe::LogLevel::Error, out.findings.message);
    ctx.emit_metrics(out.metrics);
    ctx.emit_findings(out.findings);
  }
};

}  // namespace

LOUPE_REGISTER_PLUGIN(CpuIdleAnalyzer)
