// Serving steps and GPU-graph replays of a raw trace (see serving_summary.hpp and
// docs/report.md, "Serving steps and GPU graphs").
#include "loupe/core/prepare/serving_summary.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>
#include <unordered_map>
#include <utility>

#include "host_stack.hpp"
#include "loupe/kernel_names.hpp"

namespace loupe::core::prepare {
namespace {

using trace::Category;
using trace::Uid;

bool timed(const trace::Event& e) {
  return e.ts_ns != trace::kNoValue && e.dur_ns != trace::kNoValue;
}

bool is_graph_launch(std::string_view name) {
  return name.find("GraphLaunch") != std::string_view::npos;
}

// Union length and first-start-to-last-end span of the ops' intervals.
std::pair<std::int64_t, std::int64_t> busy_and_span(const trace::TraceModel& model,
                                                    const std::vector<Uid>& ops) {
  std::vector<std::pair<std::int64_t, std::int64_t>> spans;
  for (const Uid u : ops) {
    const trace::Event& e = model.event(u);
    if (timed(e)) spans.emplace_back(e.ts_ns, e.ts_ns + e.dur_ns);
  }
  if (spans.empty()) return {0, 0};
  std::sort(spans.begin(), spans.end());
  std::int64_t total = 0, start = spans[0].first, end = spans[0].second, last = end;
  for (const auto& [s, t] : spans) {
    last = std::max(last, t);
    if (s <= end) {
      end = std::max(end, t);
      continue;
    }
    total += end - start;
    start = s;
    end = t;
  }
  total += end - start;
  return {total, last - spans[0].first};
}

// The nearest cpu_op above the launch, else the innermost Python frame that is not PyTorch's
// own (torch/...) or a builtin: the engine code that asked for the replay.
std::string caller_of(const trace::TraceModel& model, const trace::EventTree& tree, Uid launch) {
  std::string frame;
  for (Uid a = tree.parent(launch); a != trace::kNoUid; a = tree.parent(a)) {
    const Category c = model.event(a).category;
    const std::string_view name = model.name(a);
    if (c == Category::kCpuOp) return std::string(name);
    if (c == Category::kPythonFunction && frame.empty() && !name.starts_with("torch/") &&
        !name.starts_with("<built-in") &&
        name.find("site-packages/torch/") == std::string_view::npos) {
      frame = std::string(name);
    }
  }
  return frame;
}

struct StepInterval {
  Uid uid;
  std::int64_t start, end;
};

double ms(std::int64_t ns) { return std::round(static_cast<double>(ns) / 1000.0) / 1000.0; }

Json kernels_json(const std::vector<GraphKernel>& kernels, std::size_t limit) {
  Json list = Json::array();
  for (std::size_t i = 0; i < kernels.size() && i < limit; ++i) {
    const GraphKernel& k = kernels[i];
    Json kj = Json::object();
    kj["name"] = k.name;
    kj["short_name"] = short_kernel_name(k.name);
    kj["count"] = static_cast<long long>(k.count);
    kj["time_ms"] = ms(k.time_ns);
    list.push_back(std::move(kj));
  }
  return list;
}

Json optional_count(const std::optional<std::int64_t>& v) {
  return v ? Json(static_cast<long long>(*v)) : Json(nullptr);
}

// The engine that wrote the labels: SGLang writes its step[...] label inside a vLLM-style one.
std::string engine_of(const std::vector<std::string>& labels) {
  std::string engine;
  for (const auto& label : labels) {
    const auto p = trace::parse_step_label(label);
    if (!p) continue;
    switch (p->format) {
      case trace::StepLabelFormat::kSglangStep:
        return "SGLang";
      case trace::StepLabelFormat::kVllmExecute:
        if (engine.empty()) engine = "vLLM";
        break;
      case trace::StepLabelFormat::kAtom:
        if (engine.empty()) engine = "ATOM";
        break;
      case trace::StepLabelFormat::kXditDiffusion:
        if (engine.empty()) engine = "xDiT";
        break;
    }
  }
  return engine;
}

}  // namespace

ServingSummary build_serving_summary(const trace::TraceModel& model, const trace::EventTree& tree) {
  ServingSummary out;
  out.graph_launches_without_kernels = tree.stats().graph_launches_without_kernels;
  const auto n = static_cast<Uid>(model.event_count());

  // Steps: the step-label annotations, nested ones merged into the outermost.
  std::vector<StepInterval> labelled;
  for (Uid u = 0; u < n; ++u) {
    const trace::Event& e = model.event(u);
    if (e.category != Category::kUserAnnotation || !timed(e)) continue;
    if (trace::parse_step_label(model.name(u)))
      labelled.push_back({u, e.ts_ns, e.ts_ns + e.dur_ns});
  }
  std::stable_sort(labelled.begin(), labelled.end(), [](const auto& a, const auto& b) {
    return a.start != b.start ? a.start < b.start : a.end > b.end;
  });
  std::vector<StepInterval> steps;
  for (const auto& s : labelled) {
    if (!steps.empty() && s.start >= steps.back().start && s.end <= steps.back().end) {
      out.steps.back().labels.emplace_back(model.name(s.uid));
      continue;
    }
    steps.push_back(s);
    ServingStep step;
    step.label = std::string(model.name(s.uid));
    step.labels.push_back(step.label);
    step.ts_ns = s.start;
    step.dur_ns = s.end - s.start;
    out.steps.push_back(std::move(step));
  }
  for (auto& step : out.steps) {
    bool have = false;
    for (const auto& label : step.labels) {
      const auto p = trace::parse_step_label(label);
      if (!p) continue;
      if (!have || (step.parsed.phase == trace::StepPhase::kUnknown &&
                    p->phase != trace::StepPhase::kUnknown)) {
        const trace::StepLabel keep = step.parsed;
        step.parsed = *p;
        if (have) {  // keep counts an earlier label had
          if (!step.parsed.prefill_requests) step.parsed.prefill_requests = keep.prefill_requests;
          if (!step.parsed.decode_requests) step.parsed.decode_requests = keep.decode_requests;
        }
        have = true;
        continue;
      }
      if (!step.parsed.prefill_requests) step.parsed.prefill_requests = p->prefill_requests;
      if (!step.parsed.decode_requests) step.parsed.decode_requests = p->decode_requests;
      if (!step.parsed.prefill_tokens) step.parsed.prefill_tokens = p->prefill_tokens;
      if (!step.parsed.decode_tokens) step.parsed.decode_tokens = p->decode_tokens;
      if (!step.parsed.batch_size) step.parsed.batch_size = p->batch_size;
    }
  }
  const auto step_of = [&](std::int64_t ts) -> std::ptrdiff_t {
    for (std::size_t i = 0; i < steps.size(); ++i) {
      if (steps[i].start <= ts && ts < steps[i].end) return static_cast<std::ptrdiff_t>(i);
    }
    return -1;
  };

  // GPU ops by launching runtime call; per step and per graph replay.
  std::vector<std::vector<Uid>> step_ops(steps.size());
  std::vector<std::vector<Uid>> step_launchers(steps.size());
  std::vector<Uid> all_linked;
  // GPU ops by the call that launched them on the execution timeline (a graph launch for the
  // kernels a capture trace attributed to captured ops).
  std::unordered_map<Uid, std::vector<Uid>> ops_by_launcher;
  for (Uid g = 0; g < n; ++g) {
    if (!trace::is_gpu_category(model.event(g).category)) continue;
    const Uid launcher = tree.execution_launcher(g);
    if (launcher != trace::kNoUid) ops_by_launcher[launcher].push_back(g);
    if (launcher == trace::kNoUid || !timed(model.event(launcher))) continue;
    all_linked.push_back(g);
    const std::ptrdiff_t s = step_of(model.event(launcher).ts_ns);
    if (s < 0) continue;
    step_ops[s].push_back(g);
    step_launchers[s].push_back(launcher);
  }
  const auto [busy, span] = busy_and_span(model, all_linked);
  out.gpu_busy_ns = busy;
  out.gpu_span_ns = span;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    ServingStep& step = out.steps[i];
    const auto [b, sp] = busy_and_span(model, step_ops[i]);
    step.busy_ns = b;
    step.span_ns = sp;
    step.gpu_ops = static_cast<std::int64_t>(step_ops[i].size());
    std::vector<Uid> launchers = step_launchers[i];
    std::map<std::string_view, GraphKernel> eager;
    for (std::size_t k = 0; k < step_ops[i].size(); ++k) {
      const trace::Event& e = model.event(step_ops[i][k]);
      if (!timed(e)) continue;
      step.kernel_time_ns += e.dur_ns;
      if (is_graph_launch(model.name(launchers[k]))) {
        step.graph_kernel_time_ns += e.dur_ns;
      } else {
        GraphKernel& gk = eager[model.name(step_ops[i][k])];
        gk.count += 1;
        gk.time_ns += e.dur_ns;
      }
    }
    for (auto& [name, gk] : eager) {
      gk.name = std::string(name);
      step.eager_kernels.push_back(std::move(gk));
    }
    std::stable_sort(step.eager_kernels.begin(), step.eager_kernels.end(),
                     [](const auto& x, const auto& y) { return x.time_ns > y.time_ns; });
    std::sort(launchers.begin(), launchers.end());
    launchers.erase(std::unique(launchers.begin(), launchers.end()), launchers.end());
    for (const Uid l : launchers) {
      (is_graph_launch(model.name(l)) ? step.graph_launches : step.eager_launches) += 1;
    }
  }

  for (Uid u = 0; u < n; ++u) {
    const trace::Event& e = model.event(u);
    if (!trace::is_runtime_category(e.category) || !timed(e) || !is_graph_launch(model.name(u))) {
      continue;
    }
    const auto found = ops_by_launcher.find(u);
    if (found == ops_by_launcher.end()) continue;  // counted in graph_launches_without_kernels
    const std::vector<Uid>& ops = found->second;
    GraphReplay r;
    r.launch_name = std::string(model.name(u));
    r.launch_ts_ns = e.ts_ns;
    r.launch_dur_ns = e.dur_ns;
    r.caller = caller_of(model, tree, u);
    r.caller_stack = host_stack(model, tree, u);
    if (const std::ptrdiff_t s = step_of(e.ts_ns); s >= 0) {
      r.step = out.steps[s].label;
      r.step_index = static_cast<int>(s) + 1;
    }
    std::map<std::string_view, GraphKernel> by_name;
    for (const Uid g : ops) {
      const trace::Event& k = model.event(g);
      if (!timed(k)) continue;
      GraphKernel& gk = by_name[model.name(g)];
      gk.count += 1;
      gk.time_ns += k.dur_ns;
      r.kernel_count += 1;
      r.kernel_time_ns += k.dur_ns;
    }
    const auto [b, sp] = busy_and_span(model, ops);
    r.busy_ns = b;
    r.span_ns = sp;
    for (auto& [name, gk] : by_name) {
      gk.name = std::string(name);
      r.kernels.push_back(std::move(gk));
    }
    std::stable_sort(r.kernels.begin(), r.kernels.end(),
                     [](const auto& x, const auto& y) { return x.time_ns > y.time_ns; });
    out.replays.push_back(std::move(r));
  }
  std::stable_sort(out.replays.begin(), out.replays.end(),
                   [](const auto& a, const auto& b) { return a.launch_ts_ns < b.launch_ts_ns; });
  return out;
}

Json serving_summary_json(const ServingSummary& summary) {
  Json doc = Json::object();
  doc["schema"] = "loupe.serving_summary/1";
  doc["gpu_busy_ms"] = ms(summary.gpu_busy_ns);
  doc["gpu_span_ms"] = ms(summary.gpu_span_ns);

  Json steps = Json::array();
  // Per phase: steps, requests, tokens, GPU busy and idle (sums over the phase's steps).
  std::map<std::string, std::array<std::int64_t, 6>> phases;  // steps, req, tok, busy, idle, span
  std::vector<std::string> phase_order;
  std::set<std::string> known_requests, known_tokens;
  for (const auto& s : summary.steps) {
    Json j = Json::object();
    j["label"] = s.label;
    Json labels = Json::array();
    for (const auto& l : s.labels) labels.push_back(l);
    j["labels"] = std::move(labels);
    j["format"] = std::string(trace::step_label_format_name(s.parsed.format));
    j["engine"] = engine_of(s.labels);
    const std::string phase(trace::step_phase_name(s.parsed.phase));
    j["phase"] = phase;
    j["prefill_requests"] = optional_count(s.parsed.prefill_requests);
    j["decode_requests"] = optional_count(s.parsed.decode_requests);
    j["prefill_tokens"] = optional_count(s.parsed.prefill_tokens);
    j["decode_tokens"] = optional_count(s.parsed.decode_tokens);
    j["batch_size"] = optional_count(s.parsed.batch_size);
    j["host_ms"] = ms(s.dur_ns);
    j["gpu_ops"] = static_cast<long long>(s.gpu_ops);
    j["gpu_busy_ms"] = ms(s.busy_ns);
    j["gpu_span_ms"] = ms(s.span_ns);
    j["gpu_idle_ms"] = ms(s.idle_ns());
    j["gpu_idle_percent"] = s.span_ns > 0 ? std::round(10000.0 * static_cast<double>(s.idle_ns()) /
                                                       static_cast<double>(s.span_ns)) /
                                                100.0
                                          : 0.0;
    j["kernel_time_ms"] = ms(s.kernel_time_ns);
    j["graph_launches"] = static_cast<long long>(s.graph_launches);
    j["graph_kernel_time_ms"] = ms(s.graph_kernel_time_ns);
    j["eager_launches"] = static_cast<long long>(s.eager_launches);
    j["eager_kernels"] = kernels_json(s.eager_kernels, 10);
    steps.push_back(std::move(j));
    auto [it, inserted] = phases.try_emplace(phase, std::array<std::int64_t, 6>{});
    if (inserted) phase_order.push_back(phase);
    auto& a = it->second;
    a[0] += 1;
    // A phase whose labels carry no request (token) count reports null, not 0.
    const bool requests = s.parsed.prefill_requests || s.parsed.decode_requests;
    const bool tokens = s.parsed.prefill_tokens || s.parsed.decode_tokens;
    if (requests) known_requests.insert(phase);
    if (tokens) known_tokens.insert(phase);
    a[1] += s.parsed.prefill_requests.value_or(0) + s.parsed.decode_requests.value_or(0);
    a[2] += s.parsed.prefill_tokens.value_or(0) + s.parsed.decode_tokens.value_or(0);
    a[3] += s.busy_ns;
    a[4] += s.idle_ns();
    a[5] += s.span_ns;
  }
  doc["steps"] = std::move(steps);
  Json phase_list = Json::array();
  for (const auto& name : phase_order) {
    const auto& a = phases[name];
    Json p = Json::object();
    p["phase"] = name;
    p["steps"] = static_cast<long long>(a[0]);
    p["requests"] = known_requests.contains(name) ? Json(static_cast<long long>(a[1])) : Json();
    p["tokens"] = known_tokens.contains(name) ? Json(static_cast<long long>(a[2])) : Json();
    p["gpu_busy_ms"] = ms(a[3]);
    p["gpu_busy_ms_per_step"] = ms(a[3] / std::max<std::int64_t>(a[0], 1));
    p["gpu_idle_ms"] = ms(a[4]);
    p["gpu_idle_percent"] =
        a[5] > 0
            ? std::round(10000.0 * static_cast<double>(a[4]) / static_cast<double>(a[5])) / 100.0
            : 0.0;
    phase_list.push_back(std::move(p));
  }
  doc["phases"] = std::move(phase_list);

  Json replays = Json::array();
  std::int64_t unattributed_ns = 0, unattributed_kernels = 0, replay_ns = 0;
  for (const auto& r : summary.replays) {
    Json j = Json::object();
    j["launch"] = r.launch_name;
    j["launch_ts_ns"] = static_cast<long long>(r.launch_ts_ns);
    j["launch_host_ms"] = ms(r.launch_dur_ns);
    j["caller"] = r.attributed() ? Json(r.caller) : Json(nullptr);
    j["caller_stack"] = r.caller_stack;
    j["step"] = r.step.empty() ? Json(nullptr) : Json(r.step);
    j["step_index"] = r.step_index > 0 ? Json(r.step_index) : Json(nullptr);
    j["kernel_count"] = static_cast<long long>(r.kernel_count);
    j["kernel_time_ms"] = ms(r.kernel_time_ns);
    j["gpu_busy_ms"] = ms(r.busy_ns);
    j["gpu_span_ms"] = ms(r.span_ns);
    j["kernels"] = kernels_json(r.kernels, r.kernels.size());
    replays.push_back(std::move(j));
    replay_ns += r.kernel_time_ns;
    if (!r.attributed()) {
      unattributed_ns += r.kernel_time_ns;
      unattributed_kernels += r.kernel_count;
    }
  }
  doc["graph_replays"] = std::move(replays);
  Json graphs = Json::object();
  graphs["launches"] = static_cast<long long>(summary.replays.size());
  graphs["kernel_time_ms"] = ms(replay_ns);
  graphs["unattributed_launches"] =
      static_cast<long long>(std::count_if(summary.replays.begin(), summary.replays.end(),
                                           [](const auto& r) { return !r.attributed(); }));
  graphs["unattributed_kernels"] = static_cast<long long>(unattributed_kernels);
  graphs["unattributed_kernel_time_ms"] = ms(unattributed_ns);
  graphs["launches_without_kernels"] =
      static_cast<long long>(summary.graph_launches_without_kernels);
  doc["graphs"] = std::move(graphs);
  return doc;
}

}  // namespace loupe::core::prepare
