// Capture-trace attribution (capture_attribution.hpp).
#include "loupe/core/trace/capture_attribution.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "loupe/core/trace/json_reader.hpp"
#include "loupe/json_value.hpp"
#include "loupe/text.hpp"
#include "trace_model_builder.hpp"

namespace loupe::core::trace {
namespace {

// Python frames copied into the execution trace at most (each replay gets its own copy of
// its window's frames); past it, replays keep their ops and enqueue calls only.
constexpr std::size_t kMaxAppendedEvents = 2'000'000;

using loupe::text::contains;

// One begin/end-capture span of a capture trace and the enqueue calls inside it.
struct Window {
  std::size_t file = 0;
  std::size_t index = 0;  // within its file
  std::int64_t lo_ns = 0, hi_ns = 0;
  std::vector<Uid> calls;           // enqueue calls (launch, memcpy, memset) by start time
  std::vector<std::string> kernel;  // per call: args.kernel, else the call's name
  std::vector<Uid> host;            // host events inside (ops, runtime calls, python frames)
  std::size_t python = 0;           // python frames among them
  bool used = false;
};

// The text of a JSON string value ("\"abc\"" -> abc); the text itself when not a string.
std::string unquote(const std::string& json) {
  if (json.size() < 2 || json.front() != '"' || json.back() != '"') return json;
  std::string out;
  for (std::size_t i = 1; i + 1 < json.size(); ++i) {
    if (json[i] == '\\' && i + 2 < json.size()) ++i;
    out.push_back(json[i]);
  }
  return out;
}

bool has_time(const Event& e) { return (e.flags & kHasTs) != 0 && (e.flags & kHasDur) != 0; }

std::vector<Window> capture_windows(const TraceModel& m, std::size_t file) {
  std::vector<Uid> begins, ends;
  const auto n = static_cast<Uid>(m.event_count());
  for (Uid u = 0; u < n; ++u) {
    const Event& e = m.event(u);
    if (e.category != Category::kCudaRuntime || !has_time(e)) continue;
    if (contains(m.name(u), "StreamBeginCapture")) begins.push_back(u);
    if (contains(m.name(u), "StreamEndCapture")) ends.push_back(u);
  }
  const auto by_ts = [&m](Uid a, Uid b) {
    return m.event(a).ts_ns != m.event(b).ts_ns ? m.event(a).ts_ns < m.event(b).ts_ns : a < b;
  };
  std::sort(begins.begin(), begins.end(), by_ts);
  std::sort(ends.begin(), ends.end(), by_ts);
  std::vector<Window> out;
  for (std::size_t i = 0; i < std::min(begins.size(), ends.size()); ++i) {
    Window w;
    w.file = file;
    w.index = i;
    w.lo_ns = m.event(begins[i]).ts_ns + m.event(begins[i]).dur_ns;
    w.hi_ns = m.event(ends[i]).ts_ns;
    out.push_back(std::move(w));
  }
  std::vector<Uid> calls;
  for (Uid u = 0; u < n; ++u) {
    const Event& e = m.event(u);
    if (!is_runtime_category(e.category) || !has_time(e)) continue;
    const std::string_view name = m.name(u);
    if (!contains(name, "Launch") && !contains(name, "Memcpy") && !contains(name, "Memset")) {
      continue;
    }
    calls.push_back(u);
  }
  std::sort(calls.begin(), calls.end(), by_ts);
  for (Uid u = 0; u < n; ++u) {
    const Event& e = m.event(u);
    if (e.phase != Phase::kComplete || !has_time(e)) continue;
    const bool python = e.category == Category::kPythonFunction;
    if (!python && e.category != Category::kCpuOp && !is_runtime_category(e.category)) continue;
    for (Window& w : out) {
      if (e.ts_ns < w.lo_ns || e.ts_ns + e.dur_ns > w.hi_ns) continue;
      w.host.push_back(u);
      if (python) ++w.python;
    }
  }
  for (Window& w : out) {
    for (const Uid u : calls) {
      const Event& e = m.event(u);
      if (e.ts_ns < w.lo_ns || e.ts_ns + e.dur_ns > w.hi_ns) continue;
      w.calls.push_back(u);
      const auto kernel = m.arg_text(u, "kernel");
      w.kernel.push_back(kernel ? unquote(*kernel) : std::string(m.name(u)));
    }
  }
  return out;
}

// A captured call and a replayed GPU op are the same work: the kernel names agree, or both
// are copies (memsets: also a fill kernel).
bool same_work(std::string_view call_name, std::string_view call_kernel, std::string_view gpu) {
  if (contains(call_name, "Memcpy")) return contains(gpu, "Memcpy") || contains(gpu, "memcpy");
  if (contains(call_name, "Memset")) {
    return contains(gpu, "Memset") || contains(gpu, "memset") || contains(gpu, "fillBuffer");
  }
  return call_kernel == gpu;
}

// For each replayed GPU op, the index of its call in the window; nullopt when they do not match.
std::optional<std::vector<std::size_t>> align(const TraceModel& cap, const Window& w,
                                              const TraceModel& exec,
                                              const std::vector<Uid>& gpu_ops,
                                              CaptureAlignment& how) {
  const auto matches = [&](std::size_t call, Uid g) {
    return same_work(cap.name(w.calls[call]), w.kernel[call], exec.name(g));
  };
  std::vector<std::size_t> out;
  out.reserve(gpu_ops.size());
  // In order, skipping capture calls no replayed op corresponds to.
  std::size_t c = 0;
  for (const Uid g : gpu_ops) {
    while (c < w.calls.size() && !matches(c, g)) ++c;
    if (c == w.calls.size()) break;
    out.push_back(c++);
  }
  if (out.size() == gpu_ops.size()) {
    how = w.calls.size() == gpu_ops.size() ? CaptureAlignment::kInOrder
                                           : CaptureAlignment::kSkippingExtra;
    return out;
  }
  // Same calls in another order (several streams): same count per kernel name, paired in order.
  if (w.calls.size() != gpu_ops.size()) return std::nullopt;
  std::unordered_map<std::string, std::vector<std::size_t>> by_name;
  for (std::size_t i = 0; i < w.calls.size(); ++i) by_name[w.kernel[i]].push_back(i);
  std::unordered_map<std::string, std::size_t> next;
  out.clear();
  for (const Uid g : gpu_ops) {
    const std::string name(exec.name(g));
    auto it = by_name.find(name);
    if (it == by_name.end()) return std::nullopt;
    std::size_t& k = next[name];
    if (k == it->second.size()) return std::nullopt;
    out.push_back(it->second[k++]);
  }
  how = CaptureAlignment::kByName;
  return out;
}

std::string micros(std::int64_t ns) {
  char buf[48];
  const std::int64_t whole = ns / 1000;
  std::int64_t frac = ns % 1000;
  if (frac < 0) frac = -frac;
  std::snprintf(buf, sizeof buf, "%s%lld.%03lld", ns < 0 && whole == 0 ? "-" : "",
                static_cast<long long>(whole), static_cast<long long>(frac));
  return buf;
}

std::string json_quoted(std::string_view s) {
  std::string out;
  json_detail::append_utf8_escaped(out, s, false);
  return out;
}

std::string id_json(const TraceModel& m, const IdValue& v) {
  return v.is_string ? json_quoted(m.id_text(v)) : m.id_text(v);
}

// Appends one event of the capture trace, its time mapped into the launch's interval.
void append_event(const TraceModel& cap, Uid u, const std::string& pid, const std::string& tid,
                  const auto& map_ns, std::string& out) {
  const Event& e = cap.event(u);
  const std::int64_t start = map_ns(e.ts_ns);
  const std::int64_t end = map_ns(e.ts_ns + e.dur_ns);
  out += R"({"ph":"X","cat":)" + json_quoted(cap.str(e.cat)) + R"(,"name":)" +
         json_quoted(cap.name(u)) + R"(,"pid":)" + pid + R"(,"tid":)" + tid + R"(,"ts":)" +
         micros(start) + R"(,"dur":)" + micros(end - start) + R"(,"args":{)";
  bool first = true;
  const auto sep = [&] {
    if (!first) out += ',';
    first = false;
  };
  if (const auto d = cap.detail(u)) {
    // The capture's correlation ids are not copied: the links are explicit.
    if (d->external_id != kNoValue) {
      sep();
      out += R"("External id":)" + std::to_string(d->external_id);
    }
    if (d->sequence != kNoValue) {
      sep();
      out += R"("Sequence number":)" + std::to_string(d->sequence);
    }
  }
  for (const ArgPair& p : cap.args(u)) {
    sep();
    out += json_quoted(cap.str(p.key)) + ":" + cap.arg_value_text(p);
  }
  out += "}},";
}

}  // namespace

CaptureAttribution attribute_capture_traces(TraceModel& exec,
                                            const std::vector<CaptureTrace>& captures) {
  CaptureAttribution result;
  std::vector<Window> windows;
  for (std::size_t f = 0; f < captures.size(); ++f) {
    auto w = capture_windows(captures[f].model, f);
    result.files.push_back({captures[f].path.string(), w.size(), 0});
    for (auto& one : w) windows.push_back(std::move(one));
  }

  // The execution trace's graph launches and the GPU ops each replays (same correlation).
  const auto n = static_cast<Uid>(exec.event_count());
  std::unordered_map<std::int64_t, std::vector<Uid>> gpu_by_correlation;
  std::vector<Uid> launches;
  for (Uid u = 0; u < n; ++u) {
    const Event& e = exec.event(u);
    if (is_gpu_category(e.category)) {
      if (const auto d = exec.detail(u); d && d->correlation != kNoValue) {
        gpu_by_correlation[d->correlation].push_back(u);
      }
    } else if (is_runtime_category(e.category) &&
               (exec.name(u) == "hipGraphLaunch" || exec.name(u) == "cudaGraphLaunch")) {
      launches.push_back(u);
    }
  }
  std::sort(launches.begin(), launches.end(), [&exec](Uid a, Uid b) {
    return exec.event(a).ts_ns != exec.event(b).ts_ns ? exec.event(a).ts_ns < exec.event(b).ts_ns
                                                      : a < b;
  });

  std::string doc = R"({"traceEvents":[)";
  std::size_t appended = 0;
  struct PendingLink {
    std::size_t appended_index;
    Uid gpu;
  };
  std::vector<PendingLink> pending;
  for (const Uid g : launches) {
    const auto d = exec.detail(g);
    if (!d || d->correlation == kNoValue) continue;
    const auto found = gpu_by_correlation.find(d->correlation);
    if (found == gpu_by_correlation.end()) continue;
    std::vector<Uid> gpu_ops = found->second;
    std::stable_sort(gpu_ops.begin(), gpu_ops.end(),
                     [&exec](Uid a, Uid b) { return exec.event(a).ts_ns < exec.event(b).ts_ns; });
    ++result.graph_launches;

    // The first unused window that matches, else the first that matches (a graph replayed
    // again).
    Window* chosen = nullptr;
    std::vector<std::size_t> pairing;
    CaptureAlignment how = CaptureAlignment::kInOrder;
    for (const bool unused_only : {true, false}) {
      for (Window& w : windows) {
        if (unused_only && w.used) continue;
        CaptureAlignment h = CaptureAlignment::kInOrder;
        if (auto a = align(captures[w.file].model, w, exec, gpu_ops, h)) {
          chosen = &w;
          pairing = std::move(*a);
          how = h;
          break;
        }
      }
      if (chosen != nullptr) break;
    }
    if (chosen == nullptr) {
      result.unmatched.push_back(
          {g, exec.ts_us(g), gpu_ops.size(), std::string(exec.name(gpu_ops.front()))});
      continue;
    }
    chosen->used = true;
    ++result.matched_launches;
    ++result.files[chosen->file].matched_replays;
    if (how == CaptureAlignment::kByName) ++result.aligned_by_name;

    const TraceModel& cap = captures[chosen->file].model;
    const Event& launch = exec.event(g);
    const std::int64_t span = chosen->hi_ns - chosen->lo_ns;
    const auto map_ns = [&](std::int64_t t) {
      if (span <= 0) return launch.ts_ns;
      // Linear, so monotonic: containment (the tree's nesting) is kept.
      const double offset =
          static_cast<double>(std::clamp(t, chosen->lo_ns, chosen->hi_ns) - chosen->lo_ns) *
          static_cast<double>(launch.dur_ns) / static_cast<double>(span);
      return launch.ts_ns + static_cast<std::int64_t>(offset);
    };
    const std::string pid =
        launch.thread != kNoIndex ? id_json(exec, exec.threads()[launch.thread].key.pid) : "0";
    const std::string tid =
        json_quoted("graph capture " + captures[chosen->file].path.filename().string() + " #" +
                    std::to_string(chosen->index));
    std::unordered_map<Uid, std::size_t> position;  // capture call -> appended index
    const bool with_python =
        !result.python_frames_dropped && appended + chosen->host.size() <= kMaxAppendedEvents;
    if (!with_python && chosen->python > 0) result.python_frames_dropped = true;
    for (const Uid u : chosen->host) {
      if (!with_python && cap.event(u).category == Category::kPythonFunction) continue;
      position.emplace(u, appended++);
      append_event(cap, u, pid, tid, map_ns, doc);
    }
    for (std::size_t i = 0; i < gpu_ops.size(); ++i) {
      const auto p = position.find(chosen->calls[pairing[i]]);
      if (p != position.end()) pending.push_back({p->second, gpu_ops[i]});
    }
  }
  if (appended == 0) return result;
  doc.back() = ']';
  doc += '}';
  LoadOptions options;
  options.read_ahead = false;
  options.parse_threads = 1;
  LoadResult loaded = load_trace_bytes(std::move(doc), options);
  if (loaded.error || loaded.model.event_count() != appended) {
    // Cannot happen for text written above; attribute nothing rather than half.
    result.links.clear();
    return result;
  }
  const auto base = static_cast<Uid>(exec.event_count());
  TraceModelBuilder into(exec, [] { return std::uint64_t{0}; });
  TraceModelBuilder block(loaded.model, [] { return std::uint64_t{0}; });
  into.append_block(block);
  result.appended_events = appended;
  for (const PendingLink& l : pending) {
    result.links.emplace_back(base + static_cast<Uid>(l.appended_index), l.gpu);
  }
  result.attributed_gpu_ops = result.links.size();
  return result;
}

}  // namespace loupe::core::trace
