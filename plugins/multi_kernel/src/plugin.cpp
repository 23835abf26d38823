// The multi-kernel analyzer plugin: moves the host model into AnalysisInputs, runs the
// analysis, and emits the metrics and findings documents.
#include <algorithm>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "analysis.hpp"
#include "loupe/plugin.hpp"

namespace {

namespace mk = loupe::multi_kernel;

constexpr const char* kTimelineFiles[] = {"perf_report_csvs/gpu_timeline.csv",
                                          "perf_report_trace1_csvs/gpu_timeline.csv"};

// The host's load error ("<absolute path>: <problem>") without the path: callers prefix
// the model name of the file themselves.
std::string load_error(const loupe::ModelView& model, const std::string& name) {
  std::string text = model.property("load_error:" + name).value_or("");
  const std::string base = name.substr(name.rfind('/') + 1) + ": ";
  if (const size_t at = text.find(base); at != std::string::npos) text.erase(0, at + base.size());
  return text;
}

// The table's cells as text; with `keep`, only those columns (in the table's order): the
// trace's gpu_events view has a row per GPU op, and copying its long name and op_stack columns
// cost more than the whole analysis on big traces (docs/performance.md, "Big traces").
mk::RawTable copy_table(const loupe::TableView& table,
                        std::initializer_list<std::string_view> keep = {}) {
  mk::RawTable raw;
  std::vector<size_t> source;
  for (size_t c = 0; c < table.columns(); ++c) {
    const std::string name(table.column_name(c));
    if (keep.size() > 0 && std::find(keep.begin(), keep.end(), name) == keep.end()) continue;
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

mk::AnalysisInputs read_inputs(const loupe::ModelView& model) {
  mk::AnalysisInputs inputs;
  if (const auto data = model.document(mk::kDataFile)) {
    inputs.data = data.to_json();
  } else {
    inputs.data_load_error = load_error(model, mk::kDataFile);
  }
  if (const auto manifest = model.document(mk::kManifestFile)) {
    inputs.manifest = manifest.to_json();
  } else {
    inputs.manifest_load_error = load_error(model, mk::kManifestFile);
  }
  if (const auto events = model.table(mk::kGpuEventsView)) {
    // The columns assess_sync_idle reads (sync_idle.cpp).
    inputs.gpu_events = copy_table(events, {"kind", "device", "ts_ns", "dur_ns", "launcher_name",
                                            "op_name", "memcpy_direction"});
  }
  if (const auto meta = model.document("metadata/multi_kernel_metadata.json");
      meta.is_object() && meta["peak_host_link_gbps"].is_number()) {
    inputs.host_link_gbps = meta["peak_host_link_gbps"].as_double();
  }
  if (const auto cpu_idle = model.document(mk::kCpuIdleMetrics)) {
    inputs.cpu_idle_metrics = cpu_idle.to_json();
  }
  for (const char* file : kTimelineFiles) {
    if (const auto table = model.table(file)) {
      inputs.tables.emplace(file, copy_table(table));
    } else if (auto err = load_error(model, file); !err.empty()) {
      inputs.table_load_errors.emplace(file, std::move(err));
    }
  }
  return inputs;
}

std::string workload_name(loupe::Workload workload) {
  switch (workload) {
    case loupe::Workload::Training:
      return "training";
    case loupe::Workload::Inference:
      return "inference";
    default:
      return "";
  }
}

class MultiKernelAnalyzer {
 public:
  static constexpr const char* name = "multi_kernel";
  static constexpr const char* version = "1.0.0";
  static constexpr const char* description =
      "Memory copies, communication blocking compute, and compute/communication overlap";
  static constexpr loupe::Tier tier = loupe::Tier::System;
  static constexpr std::array<const char*, 1> categories{"multi_kernel"};
  // cpu_idle's idle attribution bounds the idle time a host-wait card may claim.
  static constexpr std::array<const char*, 1> reads{"cpu_idle"};

  void analyze(loupe::AnalysisContext& ctx) {
    mk::AnalysisOptions options;
    options.compat = ctx.tracelens_compat();
    options.scope = ctx.scope();
    options.workload = workload_name(ctx.workload());
    if (auto evidence = ctx.model().property("workload_evidence")) {
      options.workload_evidence = *evidence;
    }
    const mk::AnalysisOutput out = mk::run_analysis(read_inputs(ctx.model()), options);
    if (out.findings.status == loupe::findings::Status::Error) {
      ctx.log(loupe::LogLevel::Error, out.findings.message);
    }
    ctx.emit_metrics(out.metrics);
    ctx.emit_findings(out.findings);
  }
};

}  // namespace

LOUPE_REGISTER_PLUGIN(MultiKernelAnalyzer)
