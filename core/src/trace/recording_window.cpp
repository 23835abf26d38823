#include "loupe/core/trace/recording_window.hpp"

#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

#include "interval_union.hpp"
#include "json_members.hpp"
#include "loupe/core/trace/step_labels.hpp"

namespace loupe::core::trace {

namespace {

struct Side {
  OutsideWork work;
  std::vector<Interval> spans;
  void add(std::int64_t a, std::int64_t b, bool evidence) {
    if (work.ops == 0) {
      work.first_ns = a;
      work.last_end_ns = b;
    }
    ++work.ops;
    work.first_ns = std::min(work.first_ns, a);
    work.last_end_ns = std::max(work.last_end_ns, b);
    if (evidence) ++work.correlation_evidence;
    spans.emplace_back(a, b);
  }
  OutsideWork finish() {
    work.busy_ns = union_length(spans);
    return work;
  }
};

Json outside_json(const OutsideWork& w) {
  Json j = Json::object();
  j["ops"] = static_cast<std::int64_t>(w.ops);
  j["busy_ns"] = w.busy_ns;
  j["first_ns"] = w.first_ns;
  j["last_end_ns"] = w.last_end_ns;
  j["correlation_evidence"] = static_cast<std::int64_t>(w.correlation_evidence);
  return j;
}

OutsideWork outside_from(const Json* j) {
  OutsideWork w;
  if (j == nullptr || !j->is_object()) return w;
  w.ops = static_cast<std::uint64_t>(std::max<std::int64_t>(0, int_at(*j, "ops")));
  w.busy_ns = int_at(*j, "busy_ns");
  w.first_ns = int_at(*j, "first_ns");
  w.last_end_ns = int_at(*j, "last_end_ns");
  w.correlation_evidence =
      static_cast<std::uint64_t>(std::max<std::int64_t>(0, int_at(*j, "correlation_evidence")));
  return w;
}

// Capture calls, graph launches and step labels (the trace kind's evidence).
struct RecordingFacts {
  std::uint64_t begins = 0, instantiations = 0, launches = 0, step_labels = 0;
  std::int64_t capture_start = std::numeric_limits<std::int64_t>::max();
  std::int64_t capture_end = std::numeric_limits<std::int64_t>::min();
};

void count_recording_facts(const TraceModel& model, Uid u, RecordingFacts& f) {
  const Event& e = model.event(u);
  if (is_runtime_category(e.category)) {
    const std::string_view name = model.name(u);
    const bool timed = (e.flags & kHasTs) != 0 && (e.flags & kHasDur) != 0;
    if (name.find("StreamBeginCapture") != std::string_view::npos) {
      ++f.begins;
      if (timed) f.capture_start = std::min(f.capture_start, e.ts_ns);
    } else if (name.find("StreamEndCapture") != std::string_view::npos) {
      if (timed) f.capture_end = std::max(f.capture_end, e.ts_ns + e.dur_ns);
    } else if (name.find("GraphInstantiate") != std::string_view::npos) {
      ++f.instantiations;
      if (timed) f.capture_end = std::max(f.capture_end, e.ts_ns + e.dur_ns);
    } else if (name.find("GraphLaunch") != std::string_view::npos) {
      ++f.launches;
    }
  } else if (e.category == Category::kUserAnnotation && parse_step_label(model.name(u))) {
    ++f.step_labels;
  }
}

}  // namespace

std::optional<RecordingWindow> find_recording_window(const TraceModel& model,
                                                     const EventTree& tree) {
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
  std::int64_t trace_start = kMax;
  std::int64_t linked_start = kMax, linked_end = kMin, all_start = kMax, all_end = kMin;
  std::int64_t first_corr = kMax, last_corr = kMin;
  std::vector<Uid> ops;
  RecordingFacts facts;
  for (Uid u = 0; u < model.event_count(); ++u) {
    const Event& e = model.event(u);
    if ((e.flags & kHasTs) != 0) trace_start = std::min(trace_start, e.ts_ns);
    count_recording_facts(model, u, facts);
    if (!is_gpu_category(e.category) || (e.flags & kHasTs) == 0 || (e.flags & kHasDur) == 0) {
      continue;
    }
    ops.push_back(u);
    all_start = std::min(all_start, e.ts_ns);
    all_end = std::max(all_end, e.ts_ns + e.dur_ns);
    if (!tree.linked(u)) continue;
    linked_start = std::min(linked_start, e.ts_ns);
    linked_end = std::max(linked_end, e.ts_ns + e.dur_ns);
    if (const auto d = model.detail(u); d && d->correlation != kNoValue) {
      first_corr = std::min(first_corr, d->correlation);
      last_corr = std::max(last_corr, d->correlation);
    }
  }
  if (ops.empty()) return std::nullopt;
  RecordingWindow w;
  w.gpu_only = linked_start == kMax;
  w.start_ns = w.gpu_only ? all_start : linked_start;
  w.end_ns = w.gpu_only ? all_end : linked_end;
  Side before, after;
  for (const Uid u : ops) {
    const Event& e = model.event(u);
    const std::int64_t a = e.ts_ns, b = e.ts_ns + e.dur_ns;
    if (a == trace_start) ++w.ops_at_trace_start;
    const auto d = model.detail(u);
    const std::int64_t corr = d ? d->correlation : kNoValue;
    if (a < w.start_ns) {
      before.add(a, b, corr != kNoValue && first_corr != kMax && corr < first_corr);
    } else if (!w.gpu_only && (a > w.end_ns || (a == w.end_ns && b > w.end_ns))) {
      after.add(a, b, corr != kNoValue && last_corr != kMin && corr > last_corr);
    } else {
      ++w.ops_inside;
      if (!w.gpu_only && !tree.linked(u)) ++w.unlinked_inside;
    }
  }
  w.before = before.finish();
  w.after = after.finish();
  w.capture_begins = facts.begins;
  w.graph_instantiations = facts.instantiations;
  w.graph_launches = facts.launches;
  w.step_labels = facts.step_labels;
  if (facts.capture_end > facts.capture_start) {
    w.capture_ns = facts.capture_end - facts.capture_start;
  }
  return w;
}

Json recording_window_json(const RecordingWindow& w) {
  Json j = Json::object();
  j["gpu_only"] = w.gpu_only;
  j["start_ns"] = w.start_ns;
  j["end_ns"] = w.end_ns;
  j["ops_inside"] = static_cast<std::int64_t>(w.ops_inside);
  j["unlinked_inside"] = static_cast<std::int64_t>(w.unlinked_inside);
  j["before"] = outside_json(w.before);
  j["after"] = outside_json(w.after);
  j["ops_at_trace_start"] = static_cast<std::int64_t>(w.ops_at_trace_start);
  j["capture_begins"] = static_cast<std::int64_t>(w.capture_begins);
  j["graph_instantiations"] = static_cast<std::int64_t>(w.graph_instantiations);
  j["graph_launches"] = static_cast<std::int64_t>(w.graph_launches);
  j["capture_ns"] = w.capture_ns;
  j["step_labels"] = static_cast<std::int64_t>(w.step_labels);
  return j;
}

std::optional<RecordingWindow> recording_window_from_json(const Json& doc) {
  if (!doc.is_object() || doc.find("start_ns") == nullptr || doc.find("end_ns") == nullptr) {
    return std::nullopt;
  }
  RecordingWindow w;
  const Json* gpu_only = doc.find("gpu_only");
  w.gpu_only = gpu_only != nullptr && gpu_only->is_bool() && gpu_only->as_bool();
  w.start_ns = int_at(doc, "start_ns");
  w.end_ns = int_at(doc, "end_ns");
  if (w.end_ns < w.start_ns) return std::nullopt;
  w.ops_inside = static_cast<std::uint64_t>(std::max<std::int64_t>(0, int_at(doc, "ops_inside")));
  w.unlinked_inside =
      static_cast<std::uint64_t>(std::max<std::int64_t>(0, int_at(doc, "unlinked_inside")));
  w.before = outside_from(doc.find("before"));
  w.after = outside_from(doc.find("after"));
  w.ops_at_trace_start =
      static_cast<std::uint64_t>(std::max<std::int64_t>(0, int_at(doc, "ops_at_trace_start")));
  const auto count = [&](const char* key) {
    return static_cast<std::uint64_t>(std::max<std::int64_t>(0, int_at(doc, key)));
  };
  w.capture_begins = count("capture_begins");
  w.graph_instantiations = count("graph_instantiations");
  w.graph_launches = count("graph_launches");
  w.capture_ns = std::max<std::int64_t>(0, int_at(doc, "capture_ns"));
  w.step_labels = count("step_labels");
  return w;
}

}  // namespace loupe::core::trace
