#include "loupe/core/report/recording_report.hpp"

#include <cstdio>

#include "loupe/core/util/text_escape.hpp"
#include "loupe/python_format.hpp"
#include "report_text.hpp"

namespace loupe::core {

namespace {

std::string fixed3(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}

Json side_json(const trace::OutsideWork& o, std::int64_t span_ns, const char* evidence_key) {
  Json j = Json::object();
  j["ops"] = static_cast<std::int64_t>(o.ops);
  j["busy_ms"] = report_detail::ms_of_ns(o.busy_ns);
  j["span_ms"] = report_detail::ms_of_ns(o.ops > 0 ? span_ns : 0);
  j[evidence_key] = static_cast<std::int64_t>(o.correlation_evidence);
  return j;
}

std::int64_t int_at(const Json& j, const char* key) {
  const Json* v = j.find(key);
  return v != nullptr && v->is_int() ? v->as_int() : 0;
}

double ms_at(const Json& j, const char* key) {
  const Json* v = j.find(key);
  return v != nullptr && v->is_number() ? v->as_double() : 0.0;
}

const Json& member(const Json& j, const char* key) {
  static const Json kNull;
  const Json* v = j.find(key);
  return v == nullptr ? kNull : *v;
}

struct Row {
  const char* label;
  const Json* side;
  const char* evidence_key;
};

}  // namespace

const char* to_string(TraceKind kind) {
  switch (kind) {
    case TraceKind::kGpuOnly:
      return "gpu_only";
    case TraceKind::kGraphCapture:
      return "graph_capture";
    case TraceKind::kServingStep:
      return "serving_step";
    case TraceKind::kTrainingStep:
      return "training_step";
    case TraceKind::kInferenceStep:
      return "inference_step";
    case TraceKind::kStep:
      break;
  }
  return "step";
}

TraceKindVerdict classify_trace_kind(const trace::RecordingWindow& w, Workload workload,
                                     const std::string& workload_evidence) {
  if (w.gpu_only) {
    return {TraceKind::kGpuOnly, "no GPU op links to a recorded host launch (no CPU ops)"};
  }
  if (w.capture_begins > 0 && w.graph_launches == 0) {
    return {TraceKind::kGraphCapture,
            std::to_string(w.capture_begins) + " stream-capture begin call(s) and " +
                std::to_string(w.graph_instantiations) +
                " graph instantiation(s), no graph launch; the captures took " +
                fixed3(report_detail::ms_of_ns(w.capture_ns)) +
                " ms: the kernels were recorded into GPU graphs, not run as a step"};
  }
  if (w.step_labels > 0) {
    return {TraceKind::kServingStep,
            std::to_string(w.step_labels) + " serving-engine step label(s)" +
                (w.capture_begins > 0 ? "; the trace also holds " +
                                            std::to_string(w.capture_begins) + " graph capture(s)"
                                      : std::string())};
  }
  const std::string why = workload_evidence.empty() ? std::string() : ": " + workload_evidence;
  if (workload == Workload::Training) return {TraceKind::kTrainingStep, "training workload" + why};
  if (workload == Workload::Inference) {
    return {TraceKind::kInferenceStep, "inference workload" + why};
  }
  return {TraceKind::kStep, "the workload is unknown"};
}

Json recording_report_block(const trace::RecordingWindow& w, Workload workload,
                            const std::string& workload_evidence) {
  const TraceKindVerdict verdict = classify_trace_kind(w, workload, workload_evidence);
  Json window = Json::object();
  window["start_ns"] = w.start_ns;
  window["end_ns"] = w.end_ns;
  window["duration_ms"] = report_detail::ms_of_ns(w.duration_ns());
  window["gpu_ops"] = static_cast<std::int64_t>(w.ops_inside);
  window["unlinked_gpu_ops"] = static_cast<std::int64_t>(w.unlinked_inside);
  window["gpu_only"] = w.gpu_only;
  window["definition"] =
      w.gpu_only ? "every GPU op: the trace records no host launch"
                 : "from the start of the first GPU op linked to a recorded host launch to the end "
                   "of the last one; gpu_timeline.csv, the per-op tables and cpu_idle measure it";
  Json block = Json::object();
  Json kind = Json::object();
  kind["kind"] = to_string(verdict.kind);
  kind["evidence"] = verdict.evidence;
  if (verdict.kind == TraceKind::kGraphCapture) {
    kind["capture_ms"] = report_detail::ms_of_ns(w.capture_ns);
    kind["note"] =
        "a capture trace records the one-time capture of GPU graphs, not a step: its times are "
        "not step times and no finding's saving applies to a step";
  }
  block["trace_kind"] = std::move(kind);
  block["window"] = std::move(window);
  block["before"] =
      side_json(w.before, w.start_ns - w.before.first_ns, "launched_before_first_recorded_launch");
  block["after"] =
      side_json(w.after, w.after.last_end_ns - w.end_ns, "launched_after_last_recorded_launch");
  block["ops_at_trace_start"] = static_cast<std::int64_t>(w.ops_at_trace_start);
  block["outside_ms"] =
      report_detail::ms_of_ns((w.before.ops > 0 ? w.start_ns - w.before.first_ns : 0) +
                              (w.after.ops > 0 ? w.after.last_end_ns - w.end_ns : 0));
  block["note"] =
      w.work_outside()
          ? "GPU work outside the window ran while the profiler did not record the host that "
            "launched it: it is outside what the trace can explain, and no finding counts it as "
            "a saving"
          : "every GPU op of the trace ran inside the window";
  return block;
}

Json recording_report_block(const Json& window_document, Workload workload,
                            const std::string& workload_evidence) {
  const auto w = trace::recording_window_from_json(window_document);
  return w ? recording_report_block(*w, workload, workload_evidence) : Json();
}

std::string recording_report_markdown(const Json& block) {
  if (!block.is_object()) return {};
  const Json& window = member(block, "window");
  std::string out = "## Recording Window\n\n";
  const Json& kind = member(block, "trace_kind");
  if (kind.is_object() && member(kind, "kind").is_string()) {
    out += "**Trace kind**: " + member(kind, "kind").as_string();
    if (member(kind, "evidence").is_string()) {
      out += " (" + escape_markup(member(kind, "evidence").as_string()) + ")";
    }
    out += ".";
    if (member(kind, "note").is_string()) {
      out += " " + escape_markup(member(kind, "note").as_string()) + ".";
    }
    out += "\n\n";
  }
  out += "The analysis window is " + fixed3(ms_at(window, "duration_ms")) + " ms (" +
         std::to_string(int_at(window, "gpu_ops")) + " GPU ops): " +
         escape_markup(member(window, "definition").is_string()
                           ? member(window, "definition").as_string()
                           : std::string()) +
         ".";
  if (const std::int64_t unlinked = int_at(window, "unlinked_gpu_ops"); unlinked > 0) {
    out += " " + std::to_string(unlinked) +
           " of its GPU ops have no recorded launch; the gaps before them are outside what the "
           "trace can explain.";
  }
  out += "\n\n";
  const Row rows[] = {
      {"Before the window", &member(block, "before"), "launched_before_first_recorded_launch"},
      {"After the window", &member(block, "after"), "launched_after_last_recorded_launch"}};
  if (int_at(*rows[0].side, "ops") + int_at(*rows[1].side, "ops") == 0) {
    return out + "Every GPU op of the trace ran inside the window.\n\n";
  }
  out +=
      "| GPU work | GPU ops | Busy (ms) | Span (ms) | Launched while the host was not recorded |\n"
      "|---|---|---|---|---|\n";
  for (const auto& r : rows) {
    out += std::string("| ") + r.label + " | " + std::to_string(int_at(*r.side, "ops")) + " | " +
           fixed3(ms_at(*r.side, "busy_ms")) + " | " + fixed3(ms_at(*r.side, "span_ms")) + " | " +
           std::to_string(int_at(*r.side, r.evidence_key)) + " |\n";
  }
  out +=
      "\nThis work ran while the profiler did not record the host that launched it (its "
      "correlation ids lie outside the recorded launches'): it is outside what the trace can "
      "explain, and no finding counts it as a saving. To see it, start recording before it is "
      "launched (e.g. torch.cuda.synchronize() before the profiler starts, or a profiler "
      "schedule with warm-up steps).\n\n";
  return out;
}

std::string recording_report_html(const Json& block) {
  if (!block.is_object()) return {};
  const Json& window = member(block, "window");
  std::string out = "<section id=\"recording\"><h2>Recording Window</h2>\n<p>";
  const Json& kind = member(block, "trace_kind");
  if (kind.is_object() && member(kind, "kind").is_string()) {
    out += "Trace kind: <b>" + escape_markup(member(kind, "kind").as_string()) + "</b>";
    if (member(kind, "evidence").is_string()) {
      out += " (" + escape_markup(member(kind, "evidence").as_string()) + ")";
    }
    out += ". ";
  }
  out += "The analysis window is " + fixed3(ms_at(window, "duration_ms")) + " ms (" +
         std::to_string(int_at(window, "gpu_ops")) + " GPU ops).";
  const Json& before = member(block, "before");
  const Json& after = member(block, "after");
  if (int_at(before, "ops") + int_at(after, "ops") == 0) {
    return out + " Every GPU op of the trace ran inside it.</p></section>\n";
  }
  out +=
      " GPU work outside it ran while the profiler did not record its host launches: outside "
      "what the trace can explain, never counted as a saving.</p>\n<table>\n<tr><th>GPU work</th>"
      "<th>GPU ops</th><th>Busy (ms)</th><th>Span (ms)</th></tr>\n";
  for (const auto& [label, side] :
       {std::pair{"Before the window", &before}, std::pair{"After the window", &after}}) {
    out += std::string("<tr><td>") + label + "</td><td>" + std::to_string(int_at(*side, "ops")) +
           "</td><td>" + fixed3(ms_at(*side, "busy_ms")) + "</td><td>" +
           fixed3(ms_at(*side, "span_ms")) + "</td></tr>\n";
  }
  return out + "</table></section>\n";
}

}  // namespace loupe::core
