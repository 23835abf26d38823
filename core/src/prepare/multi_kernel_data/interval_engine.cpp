// Interval algebra of §3.3 over Python-float bounds (ts, ts + dur in double), so every sum is
// the same double TraceLens computes.
#include <algorithm>
#include <utility>
#include <vector>

#include "loupe/core/prepare/gpu_intervals.hpp"

namespace loupe::core::prepare {

namespace {

using Span = std::pair<double, double>;
using Spans = std::vector<Span>;

// Stable sort by start, then fold touching or overlapping intervals together.
Spans merge(Spans in) {
  std::stable_sort(in.begin(), in.end(),
                   [](const Span& a, const Span& b) { return a.first < b.first; });
  Spans out;
  for (const Span& iv : in) {
    if (!out.empty() && iv.first <= out.back().second) {
      out.back().second = std::max(out.back().second, iv.second);
    } else {
      out.push_back(iv);
    }
  }
  return out;
}

// The parts of `b` not covered by `a` (both merged and sorted); no zero-length remnants.
Spans subtract(const Spans& a, const Spans& b) {
  Spans out;
  std::size_t j = 0;
  for (const auto& [bs, be] : b) {
    double cur = bs;
    while (j < a.size() && a[j].second <= cur) ++j;
    for (std::size_t k = j; k < a.size() && a[k].first < be; ++k) {
      if (a[k].first > cur) out.emplace_back(cur, a[k].first);
      cur = std::max(cur, a[k].second);
      if (cur >= be) break;
    }
    if (cur < be) out.emplace_back(cur, be);
  }
  return out;
}

// Σ (end - start), starting from the int 0: an empty set stays an int.
PandasNumber length(const Spans& s, bool integer_times) {
  double total = 0.0;
  for (const auto& [a, b] : s) total += b - a;
  return {total, integer_times || s.empty()};
}

}  // namespace

IntervalMetrics compute_interval_metrics(std::span<const GpuInterval> events, bool integer_times,
                                         std::optional<double> micro_idle_threshold_us) {
  Spans comp, comm, memcpy, all;
  IntervalMetrics m;
  for (const GpuInterval& e : events) {
    const Span iv{e.start, e.end};
    all.push_back(iv);
    switch (e.cls) {
      case trace::GpuClass::kComputation:
        comp.push_back(iv);
        break;
      case trace::GpuClass::kCommunication:
        comm.push_back(iv);
        break;
      case trace::GpuClass::kMemcpy:
        memcpy.push_back(iv);
        break;
    }
  }
  m.all = all.size();
  m.computation_count = comp.size();
  m.communication_count = comm.size();
  m.memcpy_count = memcpy.size();

  const Spans c = merge(std::move(comp));
  const Spans n = merge(std::move(comm));
  const Spans y = merge(std::move(memcpy));
  const Spans everything = merge(std::move(all));

  m.computation = length(c, integer_times);
  m.exposed_comm = length(subtract(c, n), integer_times);
  m.exposed_memcpy = length(subtract(n, subtract(c, y)), integer_times);
  m.total_comm = length(n, integer_times);
  m.total_memcpy = length(y, integer_times);
  m.busy = length(everything, integer_times);
  m.total = {everything.back().second - everything.front().first, integer_times};
  m.idle = {m.total.value - m.busy.value, integer_times};
  if (micro_idle_threshold_us) {
    Spans micro, macro;
    for (std::size_t i = 1; i < everything.size(); ++i) {
      const Span gap{everything[i - 1].second, everything[i].first};
      (gap.second - gap.first < *micro_idle_threshold_us ? micro : macro).push_back(gap);
    }
    m.micro_idle = length(micro, integer_times);
    m.macro_idle = length(macro, integer_times);
  }
  return m;
}

PandasNumber busy_time(Spans& spans, bool integer_times) {
  // merge() and length() in place; the sort is skipped when the spans are in start order
  // already (a launcher's kernels nearly always are), which leaves a stable sort unchanged.
  const auto by_start = [](const Span& a, const Span& b) { return a.first < b.first; };
  if (!std::is_sorted(spans.begin(), spans.end(), by_start)) {
    std::stable_sort(spans.begin(), spans.end(), by_start);
  }
  std::size_t merged = 0;
  for (std::size_t i = 0; i < spans.size(); ++i) {
    if (merged > 0 && spans[i].first <= spans[merged - 1].second) {
      spans[merged - 1].second = std::max(spans[merged - 1].second, spans[i].second);
    } else {
      spans[merged++] = spans[i];
    }
  }
  spans.resize(merged);
  return length(spans, integer_times);
}

}  // namespace loupe::core::prepare
