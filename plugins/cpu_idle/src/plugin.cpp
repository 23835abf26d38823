// The CPU/idle analyzer plugin (system tier, category cpu_idle): reads the model, runs the
// analysis, emits the metrics and findings documents.
#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "analysis.hpp"
#include "loupe/plugin.hpp"

namespace {

namespace ci = loupe::cpu_idle;

// A view of the host model read in place: copying the gpu_events view's cells (one row per GPU
// op) cost as much as the analysis on big traces (docs/performance.md, "Big traces").
class ModelTable final : public ci::TableSource {
 public:
  explicit ModelTable(loupe::TableView table) : table_(table) {}
  size_t row_count() const override { return table_.rows(); }
  size_t column(std::string_view name) const override {
    const size_t c = table_.column(name);
    return c == loupe::TableView::npos ? npos : c;
  }
  std::string_view cell(size_t row, size_t column) const override {
    if (column == npos) return {};
    return table_.cell(row, column).text;
  }

 private:
  loupe::TableView table_;
};

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
    const loupe::TableView gpu = model.table(ci::kGpuEventsView);
    const loupe::TableView calls = model.table(ci::kHostCallsView);
    const ModelTable gpu_source(gpu);
    const ModelTable calls_source(calls);
    auto trace =
        ci::read_trace_inputs(gpu ? &gpu_source : nullptr, calls ? &calls_source : nullptr);
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
