#include "recommendations.hpp"

#include <algorithm>
#include <cstdio>

#include "loupe/python_format.hpp"

namespace loupe::cpu_idle {

namespace {

constexpr Mechanism kMechanisms[] = {Mechanism::Synchronization, Mechanism::LaunchBound,
                                     Mechanism::DataLoading, Mechanism::HostWork,
                                     Mechanism::QueuedWait};

Json rounded(double v, int digits) { return Json(py::round_half_even(v, digits)); }

Json gap_json(const Gap& g, std::int64_t origin_ns) {
  Json j = Json::object();
  j["device"] = g.device;
  j["start_ms"] = rounded(ms(g.start_ns - origin_ns), 3);
  j["duration_ms"] = rounded(ms(g.duration_ns()), 3);
  j["dominant_cause"] = to_string(g.dominant());
  j["dominant_mechanism"] = gap_label(g);
  j["launch_bound_ms"] = rounded(ms(g.launch_bound_ns), 3);
  j["synchronization_ms"] = rounded(ms(g.sync_ns), 3);
  j["other_ms"] = rounded(ms(g.other_total_ns()), 3);
  j["op_before"] = g.before->name;
  j["before_cpu_op"] = g.before->op_name;
  j["op_after"] = g.after->name;
  j["after_launcher"] = g.after->launch ? g.after->launch->name : std::string();
  j["after_launch_delay_ms"] =
      g.after->launch ? rounded(ms(g.after->launch->ts_ns - g.start_ns), 3) : Json(nullptr);
  j["after_cpu_op"] = g.after->op_name;
  j["after_host_stack"] = g.after->op_stack;
  j["blocking_call"] = g.blocking != nullptr ? g.blocking->name : std::string();
  j["blocking_cpu_op"] = g.blocking != nullptr ? g.blocking->op_name : std::string();
  j["blocking_host_stack"] = g.blocking != nullptr ? g.blocking->op_stack : std::string();
  j["stream_wait_call"] = g.stream_wait != nullptr ? g.stream_wait->name : std::string();
  return j;
}

}  // namespace

std::int64_t mechanism_ns(const Gap& g, Mechanism m) {
  switch (m) {
    case Mechanism::LaunchBound:
      return g.launch_bound_ns;
    case Mechanism::Synchronization:
      return g.sync_ns;
    case Mechanism::DataLoading:
      return g.other_ns[static_cast<int>(OtherReason::DataLoading)];
    case Mechanism::HostWork:
      return g.other_ns[static_cast<int>(OtherReason::HostWork)];
    case Mechanism::QueuedWait:
      return g.other_ns[static_cast<int>(OtherReason::QueuedWait)];
  }
  return 0;
}

std::optional<Mechanism> dominant_mechanism(const Gap& g) {
  std::int64_t best = 0;
  std::optional<Mechanism> out;
  for (const Mechanism m : kMechanisms) {
    if (mechanism_ns(g, m) > best) {
      best = mechanism_ns(g, m);
      out = m;
    }
  }
  return out;
}

const char* to_string(Mechanism m) {
  switch (m) {
    case Mechanism::LaunchBound:
      return "launch_bound";
    case Mechanism::Synchronization:
      return "synchronization";
    case Mechanism::DataLoading:
      return "data_loading";
    case Mechanism::HostWork:
      return "host_work";
    case Mechanism::QueuedWait:
      return "queued_wait";
  }
  return "host_work";
}

double ms(std::int64_t ns) { return static_cast<double>(ns) / 1e6; }

std::string fixed(double value, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, py::round_half_even(value, digits));
  return buf;
}

std::string fixed_ms(std::int64_t ns, int digits) { return fixed(ms(ns), digits); }

std::vector<Candidate> candidates(const Breakdown& b) {
  std::vector<Candidate> out;
  const double span_ms = ms(b.span_ns);
  for (const Mechanism m : kMechanisms) {
    Candidate c;
    c.mechanism = m;
    for (const auto& g : b.gaps) {
      c.idle_ns += mechanism_ns(g, m);
      // The gap counts for the mechanism that holds the largest share of its time.
      if (dominant_mechanism(g) == m) ++c.gaps;
    }
    if (c.idle_ns <= 0) continue;
    c.high_ms = ms(c.idle_ns);
    c.mid_ms = kSavingMid * c.high_ms;
    c.low_ms = kSavingLow * c.high_ms;
    if (span_ms > 0) {
      c.impact_low = rounded(c.low_ms / span_ms * 100, 2);
      c.impact_mid = rounded(c.mid_ms / span_ms * 100, 2);
      c.impact_high = rounded(c.high_ms / span_ms * 100, 2);
      c.reported = c.high_ms / span_ms * 100 >= kCardPercentOfSpan;
    }
    out.push_back(std::move(c));
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const Candidate& x, const Candidate& y) { return x.idle_ns > y.idle_ns; });
  return out;
}

Json breakdown_json(const Breakdown& b, const std::vector<Candidate>& cands) {
  Json j = Json::object();
  j["evaluated"] = true;
  j["source"] = "trace/gpu_events.csv, trace/host_calls.csv";
  j["gpu_span_ms"] = rounded(ms(b.span_ns), 3);
  j["gpu_busy_ms"] = rounded(ms(b.busy_ns), 3);
  j["gpu_idle_ms"] = rounded(ms(b.idle_ns), 3);
  j["gap_count"] = static_cast<long long>(b.gaps.size());
  Json causes = Json::object();
  causes["launch_bound_ms"] = rounded(ms(b.launch_bound_ns), 3);
  causes["synchronization_ms"] = rounded(ms(b.sync_ns), 3);
  causes["other_ms"] = rounded(ms(b.other_total_ns()), 3);
  Json other = Json::object();
  for (int r = 0; r < kOtherReasonCount; ++r) {
    other[std::string(to_string(static_cast<OtherReason>(r))) + "_ms"] =
        rounded(ms(b.other_ns[r]), 3);
  }
  causes["other_by_reason"] = std::move(other);
  j["by_cause"] = std::move(causes);
  Json mech = Json::array();
  for (const auto& c : cands) {
    Json m = Json::object();
    m["mechanism"] = to_string(c.mechanism);
    m["idle_ms"] = rounded(c.high_ms, 3);
    m["gaps_dominated"] = static_cast<long long>(c.gaps);
    m["reported"] = c.reported;
    mech.push_back(std::move(m));
  }
  j["mechanisms"] = std::move(mech);
  j["graph_launched_ops"] = static_cast<long long>(b.graph_launches);
  j["eager_launched_ops"] = static_cast<long long>(b.eager_launches);
  Json sources = Json::array();
  for (const auto& s : b.sync_sources) {
    Json x = Json::object();
    x["call"] = s.name;
    x["cpu_op"] = s.op_name;
    x["host_stack"] = s.op_stack;
    x["gaps"] = static_cast<long long>(s.gaps);
    x["idle_ms"] = rounded(ms(s.idle_ns), 3);
    sources.push_back(std::move(x));
  }
  j["sync_sources"] = std::move(sources);
  const std::int64_t origin =
      b.ops.empty()
          ? 0
          : std::min_element(b.ops.begin(), b.ops.end(), [](const GpuOp& x, const GpuOp& y) {
              return x.start_ns < y.start_ns;
            })->start_ns;
  Json top = Json::array();
  for (const Gap* g : b.top_gaps(10)) top.push_back(gap_json(*g, origin));
  j["top_gaps"] = std::move(top);
  j["rules"] =
      "Per device, gaps between busy intervals of all GPU ops. Synchronization: the launching "
      "host thread is inside a runtime synchronize call, a synchronous copy, or "
      "aten::_local_scalar_dense / aten::item. Launch-bound: the op ending the gap was launched "
      "after the GPU went idle and the host reached its launch within 1 ms, or the time is its "
      "launch call plus 20 us. Other: DataLoader iteration (data_loading), a longer host stretch "
      "before the launch (host_work), issued work that had not started (queued_wait; in gaps of "
      "at most 10 us device_switch, the device moving to the next queued op), no host launch "
      "(unlinked).";
  return j;
}

std::string gap_label(const Gap& g) {
  if (const auto m = dominant_mechanism(g)) return to_string(*m);
  return g.after != nullptr && g.after->launch ? "device_switch" : "unlinked";
}

Json outside_window_json(const RecordingWindow& w) {
  const auto side = [](const OutsideWindow& o, std::int64_t span_ns) {
    Json j = Json::object();
    j["ops"] = static_cast<long long>(o.ops);
    j["busy_ms"] = rounded(ms(o.busy_ns), 3);
    j["span_ms"] = rounded(ms(o.ops > 0 ? span_ns : 0), 3);
    j["launched_while_host_unrecorded"] = static_cast<long long>(o.correlation_evidence);
    return j;
  };
  Json j = Json::object();
  j["window_ms"] = rounded(ms(w.end_ns - w.start_ns), 3);
  j["before"] = side(w.before, w.start_ns - w.before.first_ns);
  j["after"] = side(w.after, w.after.last_end_ns - w.end_ns);
  j["note"] =
      "GPU work outside the analysis window (launched before the profiler recorded the host, or "
      "after) is outside what the trace can explain: not in the breakdown above, never a saving";
  return j;
}

Json estimates_json(const std::vector<Candidate>& cands) {
  Json list = Json::array();
  for (const auto& c : cands) {
    if (!c.reported) continue;
    Json e = Json::object();
    e["mechanism"] = to_string(c.mechanism);
    e["idle_ms"] = rounded(c.high_ms, 3);
    e["estimated_savings_ms_low"] = rounded(c.low_ms, 3);
    e["estimated_savings_ms"] = rounded(c.mid_ms, 3);
    e["estimated_savings_ms_high"] = rounded(c.high_ms, 3);
    e["impact_score_low"] = c.impact_low;
    e["impact_score"] = c.impact_mid;
    e["impact_score_high"] = c.impact_high;
    e["upper_bound"] =
        "estimated_savings_ms_high is the measured idle time of this mechanism; removing the "
        "mechanism cannot save more, and host work it hides may remain";
    list.push_back(std::move(e));
  }
  return list;
}

}  // namespace loupe::cpu_idle
