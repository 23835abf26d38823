#include "analysis.hpp"

#include <map>

#include "loupe/python_format.hpp"
#include "queue_evidence.hpp"

namespace loupe::cpu_idle {

namespace {

constexpr double kShortKernelUs = 10.0;

AnalysisOutput error_output(const std::string& message, const AnalysisOptions& options) {
  return {tracelens_error_metrics(message), error_findings(message, options.scope), true};
}

Json not_evaluated() {
  Json j = Json::object();
  j["evaluated"] = false;
  j["details"] =
      "No raw trace (the run did not start from loupe analyze --trace): the idle time cannot be "
      "split into launch overhead, synchronization and host work";
  return j;
}

}  // namespace

Json trace_kernel_analysis(const std::vector<GpuOp>& ops) {
  long long kernels = 0, short_kernels = 0;
  std::int64_t kernel_ns = 0;
  std::map<std::string_view, long long> by_kind;
  for (const auto& op : ops) {
    ++by_kind[op.kind];
    if (op.kind != "kernel") continue;
    ++kernels;
    kernel_ns += op.end_ns - op.start_ns;
    if (static_cast<double>(op.end_ns - op.start_ns) / 1000.0 < kShortKernelUs) ++short_kernels;
  }
  Json p = Json::object();
  p["short_kernel_count"] = short_kernels;
  p["total_kernel_count"] = kernels;
  p["avg_kernel_time_us"] =
      kernels > 0 ? Json(py::round_half_even(
                        static_cast<double>(kernel_ns) / 1000.0 / static_cast<double>(kernels), 3))
                  : Json(0.0);
  Json kinds = Json::object();
  for (const auto& [k, n] : by_kind) kinds[k] = n;
  p["kernel_count_by_category"] = std::move(kinds);
  return p;
}

AnalysisOutput run_analysis(const Utilization& u, TraceInputs trace,
                            const AnalysisOptions& options) {
  if (!u.problem.empty()) return error_output(u.problem, options);
  if (!options.compat && u.has_nan) return error_output(u.nan_where, options);
  if (!trace.problem.empty()) return error_output(trace.problem, options);

  std::optional<Breakdown> breakdown;
  std::vector<Candidate> cands;
  Json kernel_analysis = u.kernel_analysis;
  const std::optional<RecordingWindow> window = trace.window;
  const std::optional<StepVariation> variation = trace.variation;
  std::optional<QueueEvidence> queue;
  if (trace.present) {
    // Default mode: one analysis window for the run (docs/report.md, "Recording window"); the
    // GPU work outside it is reported, never attributed.
    if (!options.compat) keep_window(trace);
    if (!options.compat) kernel_analysis = trace_kernel_analysis(trace.ops);
    breakdown = attribute_idle(std::move(trace.ops), std::move(trace.calls));
    cands = candidates(*breakdown);
    if (!options.compat) queue = queue_evidence(*breakdown);
  }

  AnalysisOutput out;
  if (options.compat) {
    out.metrics = tracelens_metrics(u);
  } else {
    const Json base = tracelens_metrics(u);
    Json m = Json::object();
    m["status"] = "OK";
    m["idle_flagged"] = u.idle_flagged;
    m["gpu_utilization"] = *base.find("gpu_utilization");
    m["kernel_analysis"] = kernel_analysis;
    m["kernel_analysis_source"] =
        trace.present      ? "trace/gpu_events.csv"
        : u.kernel_columns ? "ops_summary.csv"
                           : "none: ops_summary.csv is absent or has no kernel-time columns, so "
                             "the counts are 0 (rerun with --trace for counts)";
    m["idle_breakdown"] = breakdown ? breakdown_json(*breakdown, cands) : not_evaluated();
    if (breakdown && window) {
      m["idle_breakdown"]["outside_window"] = outside_window_json(*window);
    }
    if (queue) m["idle_breakdown"]["queue"] = queue_evidence_json(*queue);
    m["impact_estimates"] = breakdown ? estimates_json(cands) : Json::array();
    out.metrics = std::move(m);
  }
  FindingsInput fin;
  fin.utilization = &u;
  fin.breakdown = breakdown ? &*breakdown : nullptr;
  fin.candidates = &cands;
  fin.window = breakdown && window && !options.compat ? &*window : nullptr;
  fin.queue = queue ? &*queue : nullptr;
  fin.variation = variation && breakdown && !options.compat ? &*variation : nullptr;
  fin.compat = options.compat;
  fin.scope = options.scope;
  out.findings = build_findings(fin);
  return out;
}

}  // namespace loupe::cpu_idle
