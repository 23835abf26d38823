// The CPU/idle analyzer plugin (system tier, category cpu_idle): reads the model, runs the
// analysis, emits the metrics and findings documents.
#include <array>

#include "analysis.hpp"
#include "loupe/plugin.hpp"

namespace {

namespace ci = loupe::cpu_idle;

std::optional<ci::TextTable> copy_table(const loupe::TableView& table) {
  if (!table) return std::nullopt;
  ci::TextTable raw;
  for (size_t c = 0; c < table.columns(); ++c) raw.columns.emplace_back(table.column_name(c));
  raw.rows.reserve(table.rows());
  for (size_t r = 0; r < table.rows(); ++r) {
    std::vector<std::string> row;
    row.reserve(table.columns());
    for (size_t c = 0; c < table.columns(); ++c) row.emplace_back(table.cell(r, c).text);
    raw.rows.push_back(std::move(row));
  }
  return raw;
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
    const auto gpu = copy_table(model.table(ci::kGpuEventsView));
    const auto calls = copy_table(model.table(ci::kHostCallsView));
    auto trace = ci::read_trace_inputs(gpu ? &*gpu : nullptr, calls ? &*calls : nullptr);
    const ci::AnalysisOutput out =
        ci::run_analysis(ci::read_utilization(model), std::move(trace), options);
    if (out.error) ctx.log(loupe::LogLevel::Error, out.findings.message);
    ctx.emit_metrics(out.metrics);
    ctx.emit_findings(out.findings);
  }
};

}  // namespace

LOUPE_REGISTER_PLUGIN(CpuIdleAnalyzer)
