#include "queue_evidence.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "loupe/python_format.hpp"
#include "loupe/queue_depth.hpp"

namespace loupe::cpu_idle {

double QueueEvidence::empty_percent() const {
  return span_ns > 0 ? 100.0 * static_cast<double>(empty_ns) / static_cast<double>(span_ns) : 0.0;
}

double QueueEvidence::idle_queued_percent() const {
  return idle_ns > 0 ? 100.0 * static_cast<double>(idle_queued_ns) / static_cast<double>(idle_ns)
                     : 0.0;
}

QueueEvidence queue_evidence(const Breakdown& b) {
  struct Device {
    std::vector<queue::QueuedOp> queued;
    std::int64_t first = 0, last = 0;
    bool any = false;
  };
  std::map<std::string_view, Device> devices;
  QueueEvidence q;
  for (const GpuOp& op : b.ops) {
    Device& d = devices[op.device];
    d.first = d.any ? std::min(d.first, op.start_ns) : op.start_ns;
    d.last = d.any ? std::max(d.last, op.end_ns) : op.end_ns;
    d.any = true;
    if (op.launch) {
      d.queued.push_back(
          {op.launch->ts_ns + std::max<std::int64_t>(0, op.launch->dur_ns), op.start_ns});
      q.evaluated = true;
    }
  }
  std::map<std::string, queue::DepthTimeline> timelines;
  double weighted = 0.0;
  for (const auto& [name, d] : devices) {
    const auto& t = timelines.emplace(name, queue::DepthTimeline(d.queued)).first->second;
    const queue::DepthStats s = t.stats(d.first, d.last);
    weighted += s.mean * static_cast<double>(s.span_ns);
    q.span_ns += s.span_ns;
    q.empty_ns += s.empty_ns;
    q.max_depth = std::max(q.max_depth, s.max);
  }
  q.mean_depth = q.span_ns > 0 ? weighted / static_cast<double>(q.span_ns) : 0.0;
  for (const Gap& g : b.gaps) {
    const auto t = timelines.find(g.device);
    if (t == timelines.end()) continue;
    const queue::DepthStats s = t->second.stats(g.start_ns, g.end_ns);
    q.idle_ns += s.span_ns;
    q.idle_queued_ns += s.span_ns - s.empty_ns;
  }
  return q;
}

Json queue_evidence_json(const QueueEvidence& q) {
  Json j = Json::object();
  j["evaluated"] = q.evaluated;
  j["definition"] =
      "GPU ops launched but not started (from the end of the launch call to the op's start)";
  j["mean_depth"] = py::round_half_even(q.mean_depth, 2);
  j["max_depth"] = q.max_depth;
  j["empty_percent_of_span"] = py::round_half_even(q.empty_percent(), 1);
  j["queued_percent_of_idle"] = py::round_half_even(q.idle_queued_percent(), 1);
  return j;
}

}  // namespace loupe::cpu_idle
