#include "loupe/core/trace/step_table.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "interval_union.hpp"
#include "json_members.hpp"
#include "loupe/core/trace/gpu_timeline.hpp"
#include "loupe/core/trace/step_labels.hpp"
#include "loupe/queue_depth.hpp"

namespace loupe::core::trace {

namespace {

bool timed(const Event& e) { return (e.flags & kHasTs) != 0 && (e.flags & kHasDur) != 0; }

// A device: the GPU op's pid (an integer or a string).
using DeviceKey = std::pair<bool, std::int64_t>;

struct Op {
  DeviceKey device;
  std::int64_t start = 0;
  std::int64_t end = 0;
  GpuClass cls = GpuClass::kComputation;
  bool linked = false;
  std::int64_t launch_start = 0;
  std::int64_t launch_end = 0;
  std::uint32_t launch_thread = kNoIndex;
};

struct Annotation {
  Uid uid = kNoUid;
  std::int64_t start = 0;
  std::int64_t end = 0;
};

std::vector<Annotation> step_annotations(const TraceModel& model, StepSource& source,
                                         std::vector<std::string>& problems) {
  std::vector<Annotation> profiler, serving;
  std::uint64_t negative = 0;
  for (Uid u = 0; u < model.event_count(); ++u) {
    const Event& e = model.event(u);
    if (e.category != Category::kUserAnnotation || (e.flags & kHasTs) == 0) continue;
    const std::string_view name = model.name(u);
    const bool is_profiler = name.starts_with("ProfilerStep#");
    if (!is_profiler && !parse_step_label(name)) continue;
    // The reader keeps a negative duration as absent (a load warning).
    if ((e.flags & kHasDur) == 0 || e.dur_ns < 0) {
      ++negative;
      continue;
    }
    (is_profiler ? profiler : serving).push_back({u, e.ts_ns, e.ts_ns + e.dur_ns});
  }
  if (negative > 0) {
    problems.push_back(std::to_string(negative) +
                       " step annotation(s) without a duration (negative or absent) were not used");
  }
  const bool use_profiler = !profiler.empty();
  std::vector<Annotation>& chosen = use_profiler ? profiler : serving;
  source = chosen.empty() ? StepSource::kNone
           : use_profiler ? StepSource::kProfilerStep
                          : StepSource::kServingLabel;
  std::stable_sort(chosen.begin(), chosen.end(),
                   [](const Annotation& a, const Annotation& b) { return a.start < b.start; });
  // Serving engines nest their labels (SGLang writes vLLM's execute_ label around its own): the
  // outermost is the step. A step starting inside the previous one is dropped.
  std::vector<Annotation> steps;
  std::uint64_t overlapping = 0;
  for (const Annotation& a : chosen) {
    if (!steps.empty() && a.start < steps.back().end) {
      const bool nested = a.end <= steps.back().end;
      if (!(nested && source == StepSource::kServingLabel)) ++overlapping;
      continue;
    }
    steps.push_back(a);
  }
  if (overlapping > 0) {
    problems.push_back(std::to_string(overlapping) +
                       " step annotation(s) overlapping the previous step were not used");
  }
  return steps;
}

// Synchronize calls by host thread, by start.
using SyncCalls = std::map<std::uint32_t, std::vector<Interval>>;

// A thread's synchronize calls follow one another: only the last one starting before `b` can
// overlap [a, b).
bool sync_overlaps(const SyncCalls& calls, std::uint32_t thread, std::int64_t a, std::int64_t b) {
  const auto it = calls.find(thread);
  if (it == calls.end()) return false;
  const auto& v = it->second;
  const auto end = std::lower_bound(v.begin(), v.end(), Interval{b, 0});
  return end != v.begin() && std::prev(end)->second > a;
}

void split_step(StepRow& row, std::vector<Op>& ops, const SyncCalls& syncs,
                const std::map<DeviceKey, queue::DepthTimeline>& queues) {
  std::sort(ops.begin(), ops.end(), [](const Op& a, const Op& b) {
    return a.device != b.device ? a.device < b.device : a.start < b.start;
  });
  double queue_weighted = 0.0;
  std::vector<Interval> all, comp, comm, copy;
  for (std::size_t i = 0; i < ops.size();) {
    std::size_t j = i;
    while (j < ops.size() && ops[j].device == ops[i].device) ++j;
    // Busy time per device, summed: two devices busy at once are two busy devices.
    all.clear();
    comp.clear();
    comm.clear();
    copy.clear();
    std::int64_t first = ops[i].start, reach = ops[i].end;
    for (std::size_t k = i; k < j; ++k) {
      const Op& op = ops[k];
      all.emplace_back(op.start, op.end);
      (op.cls == GpuClass::kCommunication ? comm
       : op.cls == GpuClass::kMemcpy      ? copy
                                          : comp)
          .emplace_back(op.start, op.end);
      if (k > i && op.start > reach) {
        const std::int64_t gap = op.start - reach;
        if (!op.linked) {
          row.idle.unlinked_ns += gap;
        } else if (op.launch_end <= reach) {
          row.idle.queued_ns += gap;
        } else if (sync_overlaps(syncs, op.launch_thread, reach, op.start)) {
          row.idle.sync_ns += gap;
        } else {
          row.idle.host_ns += gap;
        }
      }
      reach = std::max(reach, op.end);
    }
    row.gpu_span_ns += reach - first;
    row.busy_ns += union_length(all);
    row.computation_ns += union_length(comp);
    row.communication_ns += union_length(comm);
    row.memcpy_ns += union_length(copy);
    if (const auto q = queues.find(ops[i].device); q != queues.end()) {
      const queue::DepthStats st = q->second.stats(first, reach);
      queue_weighted += st.mean * static_cast<double>(st.span_ns);
      row.queue_max = std::max(row.queue_max, st.max);
      row.queue_empty_ns += st.empty_ns;
    } else {
      row.queue_empty_ns += reach - first;
    }
    i = j;
  }
  row.queue_mean =
      row.gpu_span_ns > 0 ? queue_weighted / static_cast<double>(row.gpu_span_ns) : 0.0;
}

std::int64_t median_of(std::vector<std::int64_t> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void mark_warmup(StepTable& t) {
  if (t.steps.size() < 3) return;
  std::vector<std::int64_t> times;
  for (const StepRow& s : t.steps) times.push_back(s.step_ns());
  const auto median = static_cast<double>(median_of(times));
  for (std::size_t i = 0; i + 1 < t.steps.size(); ++i) {
    if (static_cast<double>(t.steps[i].step_ns()) <= kWarmupFactor * median) break;
    t.steps[i].warmup = true;
  }
}

std::optional<StepVariation> find_variation(const StepTable& t) {
  std::vector<std::int64_t> times;
  for (const StepRow& s : t.steps) {
    if (!s.warmup) times.push_back(s.step_ns());
  }
  if (times.size() < kMinStepsForVariation) return std::nullopt;
  StepVariation v;
  v.steady_steps = times.size();
  v.median_ns = median_of(times);
  std::vector<std::int64_t> deviations;
  deviations.reserve(times.size());
  for (const std::int64_t x : times) deviations.push_back(std::abs(x - v.median_ns));
  v.spread_ns =
      static_cast<std::int64_t>(std::llround(1.4826 * static_cast<double>(median_of(deviations))));
  v.threshold_ns = std::max<std::int64_t>(
      static_cast<std::int64_t>(std::llround(kSlowSigmas * static_cast<double>(v.spread_ns))),
      static_cast<std::int64_t>(std::llround(kSlowMinFraction * static_cast<double>(v.median_ns))));
  for (std::size_t i = 0; i < t.steps.size(); ++i) {
    const StepRow& s = t.steps[i];
    if (s.warmup || s.step_ns() <= v.median_ns + v.threshold_ns) continue;
    v.slow.push_back(i);
    v.excess_ns += s.step_ns() - v.median_ns;
  }
  return v;
}

}  // namespace

const char* to_string(StepSource source) {
  switch (source) {
    case StepSource::kProfilerStep:
      return "profiler_step";
    case StepSource::kServingLabel:
      return "serving_label";
    case StepSource::kNone:
      break;
  }
  return "none";
}

StepTable build_step_table(const TraceModel& model, const EventTree& tree) {
  StepTable t;
  const std::vector<Annotation> steps = step_annotations(model, t.source, t.problems);
  for (const Annotation& a : steps) {
    StepRow row;
    row.name = std::string(model.name(a.uid));
    row.start_ns = a.start;
    row.end_ns = a.end;
    t.steps.push_back(std::move(row));
  }
  const auto step_at = [&](std::int64_t ts) -> std::ptrdiff_t {
    const auto it =
        std::upper_bound(steps.begin(), steps.end(), ts,
                         [](std::int64_t v, const Annotation& a) { return v < a.start; });
    if (it == steps.begin()) return -1;
    const auto i = std::prev(it) - steps.begin();
    return ts < steps[static_cast<std::size_t>(i)].end ? i : -1;
  };

  // GPU ops, their launches, synchronize calls and host ops.
  std::vector<std::vector<Op>> step_ops(steps.size());
  std::vector<Op> unlinked;
  std::map<DeviceKey, std::vector<queue::QueuedOp>> queued;
  SyncCalls syncs;
  std::map<std::uint32_t, std::vector<Interval>> host_ops;  // cpu_ops by thread
  std::uint64_t negative = 0, before_launch = 0;
  for (Uid u = 0; u < model.event_count(); ++u) {
    const Event& e = model.event(u);
    if (!timed(e)) {
      if (is_gpu_category(e.category) && (e.flags & kHasTs) != 0) ++negative;
      continue;
    }
    if (e.category == Category::kCpuOp && !steps.empty()) {
      if (e.dur_ns >= 0) host_ops[e.thread].emplace_back(e.ts_ns, e.ts_ns + e.dur_ns);
      continue;
    }
    if (is_runtime_category(e.category)) {
      if (e.dur_ns >= 0 && model.name(u).find("Synchronize") != std::string_view::npos) {
        syncs[e.thread].emplace_back(e.ts_ns, e.ts_ns + e.dur_ns);
      }
      continue;
    }
    if (!is_gpu_category(e.category)) continue;
    if (e.dur_ns < 0) {
      ++negative;
      continue;
    }
    Op op;
    if (e.thread != kNoIndex) {
      const IdValue& pid = model.threads()[e.thread].key.pid;
      op.device = {pid.is_string, pid.value};
    }
    op.start = e.ts_ns;
    op.end = e.ts_ns + e.dur_ns;
    op.cls = classify_gpu_op(e.category, model.name(u));
    const Uid launch = tree.parent(u);
    if (launch != kNoUid && timed(model.event(launch))) {
      const Event& l = model.event(launch);
      op.linked = true;
      op.launch_start = l.ts_ns;
      op.launch_end = l.ts_ns + std::max<std::int64_t>(0, l.dur_ns);
      op.launch_thread = l.thread;
      if (op.start < op.launch_start) ++before_launch;
      queued[op.device].push_back({op.launch_end, op.start});
    }
    if (steps.empty()) continue;
    if (!op.linked) {
      unlinked.push_back(op);
      continue;
    }
    const std::ptrdiff_t s = step_at(op.launch_start);
    if (s < 0) {
      ++t.ops_outside_steps;
    } else {
      step_ops[static_cast<std::size_t>(s)].push_back(op);
    }
  }
  if (negative > 0) {
    t.problems.push_back(std::to_string(negative) +
                         " GPU op(s) without a duration (negative or absent) were not used");
  }
  if (before_launch > 0) {
    t.problems.push_back(std::to_string(before_launch) +
                         " GPU op(s) start before their launch call: the host and GPU clocks "
                         "disagree, and their queue time is not counted");
  }
  for (auto& [thread, v] : syncs) std::sort(v.begin(), v.end());
  for (auto& [thread, v] : host_ops) std::sort(v.begin(), v.end());

  // Each step's GPU span from its launched ops; unlinked ops starting inside a span join it.
  for (std::size_t i = 0; i < steps.size(); ++i) {
    StepRow& row = t.steps[i];
    const auto& ops = step_ops[i];
    if (ops.empty()) continue;
    row.gpu_start_ns = ops.front().start;
    row.gpu_end_ns = ops.front().end;
    for (const Op& op : ops) {
      row.gpu_start_ns = std::min(row.gpu_start_ns, op.start);
      row.gpu_end_ns = std::max(row.gpu_end_ns, op.end);
    }
  }
  std::vector<std::pair<Interval, std::size_t>> spans;  // steps with GPU work, by span start
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const StepRow& row = t.steps[i];
    if (row.gpu_end_ns > row.gpu_start_ns) spans.push_back({{row.gpu_start_ns, row.gpu_end_ns}, i});
  }
  std::sort(spans.begin(), spans.end());
  for (const Op& op : unlinked) {
    const auto it = std::upper_bound(spans.begin(), spans.end(), op.start,
                                     [](std::int64_t v, const std::pair<Interval, std::size_t>& s) {
                                       return v < s.first.first;
                                     });
    if (it != spans.begin() && op.start < std::prev(it)->first.second) {
      step_ops[std::prev(it)->second].push_back(op);
    }
  }

  std::map<DeviceKey, queue::DepthTimeline> queues;
  for (const auto& [device, ops] : queued) queues.emplace(device, queue::DepthTimeline(ops));
  std::map<DeviceKey, bool> devices;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    StepRow& row = t.steps[i];
    row.gpu_ops = step_ops[i].size();
    for (const Op& op : step_ops[i]) devices[op.device] = true;
    split_step(row, step_ops[i], syncs, queues);
    // Host time: the cpu_ops of the annotation's thread inside the step.
    const auto h = host_ops.find(model.event(steps[i].uid).thread);
    if (h != host_ops.end()) {
      std::vector<Interval> inside;
      for (auto it = std::lower_bound(h->second.begin(), h->second.end(),
                                      Interval{row.start_ns, row.start_ns});
           it != h->second.end() && it->first < row.end_ns; ++it) {
        inside.emplace_back(it->first, std::min(it->second, row.end_ns));
      }
      row.host_ns = union_length(inside);
    }
  }
  t.devices = devices.size();
  if (t.devices > 1) {
    t.problems.push_back("the steps' GPU work runs on " + std::to_string(t.devices) +
                         " devices: GPU span, busy and idle times are summed over them");
  }
  mark_warmup(t);
  t.variation = find_variation(t);
  return t;
}

namespace {

double double_at(const Json& j, const char* key) {
  const Json* v = j.find(key);
  return v != nullptr && v->is_number() ? v->as_double() : 0.0;
}

}  // namespace

Json step_table_json(const StepTable& t) {
  Json doc = Json::object();
  doc["source"] = to_string(t.source);
  doc["devices"] = static_cast<std::int64_t>(t.devices);
  doc["ops_outside_steps"] = static_cast<std::int64_t>(t.ops_outside_steps);
  Json problems = Json::array();
  for (const auto& p : t.problems) problems.push_back(p);
  doc["problems"] = std::move(problems);
  Json steps = Json::array();
  for (const StepRow& s : t.steps) {
    Json r = Json::object();
    r["name"] = s.name;
    r["start_ns"] = s.start_ns;
    r["end_ns"] = s.end_ns;
    r["gpu_ops"] = static_cast<std::int64_t>(s.gpu_ops);
    r["gpu_start_ns"] = s.gpu_start_ns;
    r["gpu_end_ns"] = s.gpu_end_ns;
    r["gpu_span_ns"] = s.gpu_span_ns;
    r["busy_ns"] = s.busy_ns;
    r["computation_ns"] = s.computation_ns;
    r["communication_ns"] = s.communication_ns;
    r["memcpy_ns"] = s.memcpy_ns;
    r["idle_sync_ns"] = s.idle.sync_ns;
    r["idle_host_ns"] = s.idle.host_ns;
    r["idle_queued_ns"] = s.idle.queued_ns;
    r["idle_unlinked_ns"] = s.idle.unlinked_ns;
    r["host_ns"] = s.host_ns;
    r["queue_mean"] = s.queue_mean;
    r["queue_max"] = s.queue_max;
    r["queue_empty_ns"] = s.queue_empty_ns;
    r["warmup"] = s.warmup;
    steps.push_back(std::move(r));
  }
  doc["steps"] = std::move(steps);
  if (t.variation) {
    const StepVariation& v = *t.variation;
    Json j = Json::object();
    j["steady_steps"] = static_cast<std::int64_t>(v.steady_steps);
    j["median_ns"] = v.median_ns;
    j["spread_ns"] = v.spread_ns;
    j["threshold_ns"] = v.threshold_ns;
    Json slow = Json::array();
    for (const std::size_t i : v.slow) slow.push_back(static_cast<std::int64_t>(i));
    j["slow"] = std::move(slow);
    j["excess_ns"] = v.excess_ns;
    doc["variation"] = std::move(j);
  } else {
    doc["variation"] = nullptr;
  }
  return doc;
}

std::optional<StepTable> step_table_from_json(const Json& doc) {
  const Json* steps = doc.is_object() ? doc.find("steps") : nullptr;
  if (steps == nullptr || !steps->is_array()) return std::nullopt;
  StepTable t;
  const Json* source = doc.find("source");
  const std::string src = source != nullptr && source->is_string() ? source->as_string() : "";
  t.source = src == "profiler_step"   ? StepSource::kProfilerStep
             : src == "serving_label" ? StepSource::kServingLabel
                                      : StepSource::kNone;
  t.devices = static_cast<std::size_t>(std::max<std::int64_t>(0, int_at(doc, "devices")));
  t.ops_outside_steps =
      static_cast<std::uint64_t>(std::max<std::int64_t>(0, int_at(doc, "ops_outside_steps")));
  if (const Json* p = doc.find("problems"); p != nullptr && p->is_array()) {
    for (const Json& s : p->as_array()) {
      if (s.is_string()) t.problems.push_back(s.as_string());
    }
  }
  for (const Json& r : steps->as_array()) {
    if (!r.is_object()) return std::nullopt;
    StepRow s;
    const Json* name = r.find("name");
    s.name = name != nullptr && name->is_string() ? name->as_string() : "";
    s.start_ns = int_at(r, "start_ns");
    s.end_ns = int_at(r, "end_ns");
    s.gpu_ops = static_cast<std::uint64_t>(std::max<std::int64_t>(0, int_at(r, "gpu_ops")));
    s.gpu_start_ns = int_at(r, "gpu_start_ns");
    s.gpu_end_ns = int_at(r, "gpu_end_ns");
    s.gpu_span_ns = int_at(r, "gpu_span_ns");
    s.busy_ns = int_at(r, "busy_ns");
    s.computation_ns = int_at(r, "computation_ns");
    s.communication_ns = int_at(r, "communication_ns");
    s.memcpy_ns = int_at(r, "memcpy_ns");
    s.idle.sync_ns = int_at(r, "idle_sync_ns");
    s.idle.host_ns = int_at(r, "idle_host_ns");
    s.idle.queued_ns = int_at(r, "idle_queued_ns");
    s.idle.unlinked_ns = int_at(r, "idle_unlinked_ns");
    s.host_ns = int_at(r, "host_ns");
    s.queue_mean = double_at(r, "queue_mean");
    s.queue_max = int_at(r, "queue_max");
    s.queue_empty_ns = int_at(r, "queue_empty_ns");
    const Json* warm = r.find("warmup");
    s.warmup = warm != nullptr && warm->is_bool() && warm->as_bool();
    t.steps.push_back(std::move(s));
  }
  if (const Json* v = doc.find("variation"); v != nullptr && v->is_object()) {
    StepVariation var;
    var.steady_steps =
        static_cast<std::size_t>(std::max<std::int64_t>(0, int_at(*v, "steady_steps")));
    var.median_ns = int_at(*v, "median_ns");
    var.spread_ns = int_at(*v, "spread_ns");
    var.threshold_ns = int_at(*v, "threshold_ns");
    var.excess_ns = int_at(*v, "excess_ns");
    if (const Json* slow = v->find("slow"); slow != nullptr && slow->is_array()) {
      for (const Json& i : slow->as_array()) {
        if (i.is_int() && i.as_int() >= 0 &&
            static_cast<std::size_t>(i.as_int()) < t.steps.size()) {
          var.slow.push_back(static_cast<std::size_t>(i.as_int()));
        }
      }
    }
    t.variation = std::move(var);
  }
  return t;
}

}  // namespace loupe::core::trace
