#include "gap_attribution.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace loupe::cpu_idle {

namespace {

using Interval = std::pair<std::int64_t, std::int64_t>;

// Sorted, non-overlapping intervals.
std::vector<Interval> merged(std::vector<Interval> spans) {
  std::sort(spans.begin(), spans.end());
  std::vector<Interval> out;
  for (const auto& s : spans) {
    if (s.second <= s.first) continue;
    if (!out.empty() && s.first <= out.back().second) {
      out.back().second = std::max(out.back().second, s.second);
    } else {
      out.push_back(s);
    }
  }
  return out;
}

// Length of [lo, hi) covered by `set` (merged).
std::int64_t covered(const std::vector<Interval>& set, std::int64_t lo, std::int64_t hi) {
  std::int64_t total = 0;
  auto it =
      std::upper_bound(set.begin(), set.end(), Interval{lo, lo},
                       [](const Interval& a, const Interval& b) { return a.second < b.second; });
  for (; it != set.end() && it->first < hi; ++it) {
    const std::int64_t a = std::max(lo, it->first);
    const std::int64_t b = std::min(hi, it->second);
    if (b > a) total += b - a;
  }
  return total;
}

std::int64_t length(std::int64_t lo, std::int64_t hi) { return hi > lo ? hi - lo : 0; }

bool blocks(HostCallKind kind) {
  return kind == HostCallKind::Sync || kind == HostCallKind::SyncCopy ||
         kind == HostCallKind::ScalarRead;
}

bool graph_launch(std::string_view launcher) {
  return launcher.find("GraphLaunch") != std::string_view::npos;
}

// The host events of one thread ("" = every thread): blocking calls (sorted by start, and
// merged into intervals) and DataLoader iteration intervals.
struct HostIntervals {
  std::vector<const HostCall*> blocking_calls;  // by start
  std::int64_t longest_call_ns = 0;
  std::vector<Interval> blocking;
  std::vector<Interval> loading;
  std::vector<const HostCall*> stream_waits;  // by start
};

class HostIndex {
 public:
  explicit HostIndex(const std::vector<HostCall>& calls) : calls_(calls) {}

  const HostIntervals& for_thread(std::string_view tid) {
    auto it = cache_.find(tid);
    if (it != cache_.end()) return it->second;
    HostIntervals h;
    std::vector<Interval> blocking, loading;
    for (const auto& c : calls_) {
      if (!tid.empty() && c.tid != tid) continue;
      if (c.kind == HostCallKind::StreamWait) {
        h.stream_waits.push_back(&c);
      } else if (blocks(c.kind)) {
        h.blocking_calls.push_back(&c);
        h.longest_call_ns = std::max(h.longest_call_ns, c.end_ns - c.start_ns);
        blocking.emplace_back(c.start_ns, c.end_ns);
      } else {
        loading.emplace_back(c.start_ns, c.end_ns);
      }
    }
    std::stable_sort(
        h.blocking_calls.begin(), h.blocking_calls.end(),
        [](const HostCall* a, const HostCall* b) { return a->start_ns < b->start_ns; });
    std::stable_sort(
        h.stream_waits.begin(), h.stream_waits.end(),
        [](const HostCall* a, const HostCall* b) { return a->start_ns < b->start_ns; });
    h.blocking = merged(std::move(blocking));
    h.loading = merged(std::move(loading));
    return cache_.emplace(tid, std::move(h)).first->second;
  }

 private:
  const std::vector<HostCall>& calls_;
  std::map<std::string_view, HostIntervals> cache_;  // views of the calls' tids
};

// DataLoader time of [lo, hi) that no blocking call already covers.
std::int64_t loading_time(const HostIntervals& h, std::int64_t lo, std::int64_t hi) {
  std::int64_t loading = 0;
  for (const auto& [a, b] : h.loading) {
    const std::int64_t x = std::max(lo, a), y = std::min(hi, b);
    if (y > x) loading += (y - x) - covered(h.blocking, x, y);
  }
  return loading;
}

// Time of [lo, hi) with neither a blocking call nor DataLoader iteration.
std::int64_t free_time(const HostIntervals& h, std::int64_t lo, std::int64_t hi) {
  if (hi <= lo) return 0;
  return (hi - lo) - covered(h.blocking, lo, hi) - loading_time(h, lo, hi);
}

// The blocking call that overlaps [lo, hi) longest (calls that start before lo - longest call
// cannot reach it).
const HostCall* largest_blocking(const HostIntervals& h, std::int64_t lo, std::int64_t hi) {
  const auto first =
      std::lower_bound(h.blocking_calls.begin(), h.blocking_calls.end(), lo - h.longest_call_ns,
                       [](const HostCall* c, std::int64_t t) { return c->start_ns < t; });
  const HostCall* best = nullptr;
  std::int64_t best_ns = 0;
  for (auto it = first; it != h.blocking_calls.end() && (*it)->start_ns < hi; ++it) {
    const std::int64_t ns = length(std::max(lo, (*it)->start_ns), std::min(hi, (*it)->end_ns));
    if (ns > best_ns) {
      best_ns = ns;
      best = *it;
    }
  }
  return best;
}

void split_gap(Gap& g, HostIndex& index) {
  const GpuOp& next = *g.after;
  const std::string_view tid = next.launch ? next.launch->tid : std::string_view();
  const HostIntervals& host = index.for_thread(tid);
  const std::int64_t s = g.start_ns, e = g.end_ns;
  if (!next.launch) {
    // No recorded launch (launched before the profiler recorded the host, or its flow is
    // missing): what the host did meanwhile says nothing about this op, so the gap is outside
    // what the trace can explain, never synchronization (docs/deviations.md, cpu_idle I1).
    g.other_ns[static_cast<int>(OtherReason::Unlinked)] = e - s;
    return;
  }
  // Once the op that ends the gap is issued (its launch call plus the launch latency), what the
  // host does no longer holds the GPU: the op is queued and the device waits on something else
  // (docs/deviations.md, cpu_idle I1). A blocking call or DataLoader time after that point is
  // queued wait, not synchronization.
  const std::int64_t issued =
      std::clamp(next.launch->ts_ns + next.launch->dur_ns + kLaunchLatencyNs, s, e);
  g.sync_ns = covered(host.blocking, s, issued);
  g.other_ns[static_cast<int>(OtherReason::DataLoading)] = loading_time(host, s, issued);
  g.blocking = g.sync_ns > 0 ? largest_blocking(host, s, issued) : nullptr;
  const std::int64_t a = next.launch->ts_ns;
  const std::int64_t b = a + next.launch->dur_ns + kLaunchLatencyNs;
  // Before the launch call: the host was on its way to the launch.
  const std::int64_t before = free_time(host, s, std::min(a, e));
  if (a - s <= kLaunchBoundWindowNs) {
    g.launch_bound_ns += before;
  } else {
    g.other_ns[static_cast<int>(OtherReason::HostWork)] += before;
  }
  // The launch call and its latency.
  g.launch_bound_ns += free_time(host, std::max(a, s), std::min(b, e));
  // Issued, but the op had not started: the device waited on something else, or (short gaps)
  // switched from one queued op to the next.
  const OtherReason queued = g.duration_ns() <= kDeviceSwitchMaxGapNs ? OtherReason::DeviceSwitch
                                                                      : OtherReason::QueuedWait;
  g.other_ns[static_cast<int>(queued)] += std::max<std::int64_t>(0, e - std::max(b, s));
  if (queued == OtherReason::QueuedWait && g.other_ns[static_cast<int>(queued)] > 0) {
    // The last stream wait issued on the launching thread within 1 ms before the launch.
    const auto it =
        std::upper_bound(host.stream_waits.begin(), host.stream_waits.end(), a,
                         [](std::int64_t t, const HostCall* c) { return t < c->start_ns; });
    if (it != host.stream_waits.begin() && a - (*std::prev(it))->start_ns <= kLaunchBoundWindowNs) {
      g.stream_wait = *std::prev(it);
    }
  }
}

}  // namespace

const char* to_string(IdleCause cause) {
  switch (cause) {
    case IdleCause::LaunchBound:
      return "launch_bound";
    case IdleCause::Synchronization:
      return "synchronization";
    case IdleCause::Other:
      return "other";
  }
  return "other";
}

const char* to_string(OtherReason reason) {
  switch (reason) {
    case OtherReason::DataLoading:
      return "data_loading";
    case OtherReason::HostWork:
      return "host_work";
    case OtherReason::QueuedWait:
      return "queued_wait";
    case OtherReason::DeviceSwitch:
      return "device_switch";
    case OtherReason::Unlinked:
      return "unlinked";
  }
  return "host_work";
}

std::int64_t Gap::other_total_ns() const {
  std::int64_t t = 0;
  for (const std::int64_t v : other_ns) t += v;
  return t;
}

IdleCause Gap::dominant() const {
  const std::int64_t other = other_total_ns();
  if (sync_ns >= launch_bound_ns && sync_ns >= other) return IdleCause::Synchronization;
  if (launch_bound_ns >= other) return IdleCause::LaunchBound;
  return IdleCause::Other;
}

std::int64_t Breakdown::other_total_ns() const {
  std::int64_t t = 0;
  for (const std::int64_t v : other_ns) t += v;
  return t;
}

std::vector<const Gap*> Breakdown::top_gaps(std::size_t n) const {
  std::vector<const Gap*> out;
  for (const auto& g : gaps) out.push_back(&g);
  std::stable_sort(out.begin(), out.end(),
                   [](const Gap* x, const Gap* y) { return x->duration_ns() > y->duration_ns(); });
  if (out.size() > n) out.resize(n);
  return out;
}

Breakdown attribute_idle(std::vector<GpuOp> ops, std::vector<HostCall> calls) {
  Breakdown out;
  out.ops = std::move(ops);
  out.calls = std::move(calls);
  std::map<std::string_view, std::vector<const GpuOp*>> by_device;
  for (const auto& op : out.ops) {
    by_device[op.device].push_back(&op);
    if (op.launch) ++(graph_launch(op.launch->name) ? out.graph_launches : out.eager_launches);
  }
  HostIndex index(out.calls);
  std::map<std::pair<std::string_view, std::string_view>, SyncSource> sources;
  for (auto& [device, list] : by_device) {
    std::stable_sort(list.begin(), list.end(),
                     [](const GpuOp* x, const GpuOp* y) { return x->start_ns < y->start_ns; });
    const GpuOp* last = list.front();
    std::int64_t busy_start = last->start_ns;
    std::int64_t busy_end = last->end_ns;
    for (size_t i = 1; i <= list.size(); ++i) {
      if (i < list.size() && list[i]->start_ns <= busy_end) {
        if (list[i]->end_ns >= busy_end) {
          busy_end = list[i]->end_ns;
          last = list[i];
        }
        continue;
      }
      out.busy_ns += busy_end - busy_start;
      if (i == list.size()) break;
      Gap g;
      g.device = device;
      g.start_ns = busy_end;
      g.end_ns = list[i]->start_ns;
      g.before = last;
      g.after = list[i];
      split_gap(g, index);
      out.gaps.push_back(g);
      busy_start = list[i]->start_ns;
      busy_end = list[i]->end_ns;
      last = list[i];
    }
    out.span_ns += busy_end - list.front()->start_ns;
  }
  for (const auto& g : out.gaps) {
    out.idle_ns += g.duration_ns();
    out.launch_bound_ns += g.launch_bound_ns;
    out.sync_ns += g.sync_ns;
    for (int r = 0; r < kOtherReasonCount; ++r) out.other_ns[r] += g.other_ns[r];
    if (g.blocking != nullptr) {
      SyncSource& s = sources[{g.blocking->name, g.blocking->op_name}];
      s.name = g.blocking->name;
      s.op_name = g.blocking->op_name;
      s.op_stack = g.blocking->op_stack;
      s.gaps += 1;
      s.idle_ns += g.sync_ns;
    }
  }
  for (auto& [key, s] : sources) out.sync_sources.push_back(std::move(s));
  std::stable_sort(out.sync_sources.begin(), out.sync_sources.end(),
                   [](const SyncSource& x, const SyncSource& y) { return x.idle_ns > y.idle_ns; });
  return out;
}

}  // namespace loupe::cpu_idle
