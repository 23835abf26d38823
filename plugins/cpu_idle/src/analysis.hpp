// The CPU/idle analysis: TraceLens's utilization report, plus (default mode, raw trace) the idle
// breakdown and its recommendations.
#pragma once

#include <string>

#include "findings_builder.hpp"
#include "loupe/findings.hpp"
#include "loupe/json_value.hpp"
#include "loupe/vocabulary.hpp"
#include "trace_inputs.hpp"
#include "utilization.hpp"

namespace loupe::cpu_idle {

struct AnalysisOptions {
  bool compat = false;
  Scope scope = Scope::Standalone;
};

struct AnalysisOutput {
  Json metrics;
  findings::Document findings;
  bool error = false;
};

AnalysisOutput run_analysis(const Utilization& utilization, TraceInputs trace,
                            const AnalysisOptions& options);

// Default mode: kernel counts from the raw trace's GPU ops (TraceLens's ops_summary.csv
// columns do not exist, so its counts are always 0).
Json trace_kernel_analysis(const std::vector<GpuOp>& ops);

}  // namespace loupe::cpu_idle
