// The recording window in the run report, default mode, from a raw trace (docs/report.md,
// "Recording window"): findings.json's `recording` block, the analysis.md section and the
// report.html section, all from the trace's recording window (trace/recording_window.json,
// core/include/loupe/core/trace/recording_window.hpp).
#pragma once

#include <string>

#include "loupe/core/trace/recording_window.hpp"
#include "loupe/json_value.hpp"
#include "loupe/vocabulary.hpp"

namespace loupe::core {

// What a trace recorded (docs/report.md, "Trace kind"), first rule that holds: GPU ops only; a
// GPU-graph capture (stream-capture calls and no graph launch: the one-time capture, not a
// step); serving-engine steps (step labels); else a training or inference step, by the run's
// workload (core/src/run/workload_detection.cpp), or a step of unknown kind.
enum class TraceKind {
  kGpuOnly,
  kGraphCapture,
  kServingStep,
  kTrainingStep,
  kInferenceStep,
  kStep
};
const char* to_string(TraceKind kind);  // gpu_only | graph_capture | serving_step | ...

struct TraceKindVerdict {
  TraceKind kind = TraceKind::kStep;
  std::string evidence;
};
TraceKindVerdict classify_trace_kind(const trace::RecordingWindow& window, Workload workload,
                                     const std::string& workload_evidence);

// The `recording` block: the trace kind with its evidence, the window (ms and ns), the GPU work
// before and after it, and what that work means for the findings.
Json recording_report_block(const trace::RecordingWindow& window, Workload workload,
                            const std::string& workload_evidence);
// The block from the document; null when the document is not a recording window.
Json recording_report_block(const Json& window_document, Workload workload,
                            const std::string& workload_evidence);

// The "## Recording Window" section of analysis.md ("" for a null block).
std::string recording_report_markdown(const Json& block);
// The <section id="recording"> of report.html ("" for a null block).
std::string recording_report_html(const Json& block);

}  // namespace loupe::core
