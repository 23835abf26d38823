// Per-stream queue depth (docs/report.md, "Steps"): how many GPU ops were launched but had not
// started yet. An op is queued from the end of its launch call (the host has handed it to the
// runtime) to its start on the GPU; an op that starts before its launch call ends is never
// queued. A well-fed queue means the GPU was not waiting for the host to launch work.
// Header-only, shared by the host's step table and the cpu_idle analyzer.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace loupe::queue {

// One GPU op with a recorded launch: the end of its launch call and its start on the GPU (ns).
struct QueuedOp {
  std::int64_t launched_ns = 0;
  std::int64_t start_ns = 0;
};

// The depth of one queue over [from, to): time-weighted mean, maximum, and the time it held no
// op (empty_ns).
struct DepthStats {
  double mean = 0.0;
  std::int64_t max = 0;
  std::int64_t empty_ns = 0;
  std::int64_t span_ns = 0;
  double empty_fraction() const {
    return span_ns > 0 ? static_cast<double>(empty_ns) / static_cast<double>(span_ns) : 0.0;
  }
};

// The depth as a step function: (time, depth from that time on), times ascending, depth 0
// before the first change.
class DepthTimeline {
 public:
  explicit DepthTimeline(const std::vector<QueuedOp>& ops) {
    std::vector<std::pair<std::int64_t, int>> deltas;
    deltas.reserve(ops.size() * 2);
    for (const QueuedOp& op : ops) {
      if (op.start_ns <= op.launched_ns) continue;  // never waited in the queue
      deltas.emplace_back(op.launched_ns, +1);
      deltas.emplace_back(op.start_ns, -1);
    }
    std::sort(deltas.begin(), deltas.end());
    std::int64_t depth = 0;
    for (std::size_t i = 0; i < deltas.size(); ++i) {
      depth += deltas[i].second;
      if (i + 1 < deltas.size() && deltas[i + 1].first == deltas[i].first) continue;
      steps_.emplace_back(deltas[i].first, depth);
    }
  }

  // The depth over [from, to) (to <= from: an empty interval, all zero).
  DepthStats stats(std::int64_t from, std::int64_t to) const {
    DepthStats s;
    if (to <= from) return s;
    s.span_ns = to - from;
    // The depth at `from`: the last change at or before it.
    auto it = std::upper_bound(steps_.begin(), steps_.end(), from,
                               [](std::int64_t t, const auto& step) { return t < step.first; });
    std::int64_t depth = it == steps_.begin() ? 0 : std::prev(it)->second;
    std::int64_t at = from;
    double weighted = 0.0;
    const auto hold = [&](std::int64_t until) {
      const std::int64_t len = until - at;
      if (len <= 0) return;
      weighted += static_cast<double>(depth) * static_cast<double>(len);
      if (depth == 0) s.empty_ns += len;
      s.max = std::max(s.max, depth);
      at = until;
    };
    for (; it != steps_.end() && it->first < to; ++it) {
      hold(it->first);
      depth = it->second;
    }
    hold(to);
    s.mean = weighted / static_cast<double>(s.span_ns);
    return s;
  }

  const std::vector<std::pair<std::int64_t, std::int64_t>>& changes() const { return steps_; }

 private:
  std::vector<std::pair<std::int64_t, std::int64_t>> steps_;
};

}  // namespace loupe::queue
