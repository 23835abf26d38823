#include "overlap_analysis.hpp"

#include "loupe/core/prepare/gpu_intervals.hpp"
#include "py_number.hpp"

namespace loupe::core::prepare::mk {

namespace {

// 1 - exposed / total, 4 decimals; null without any of that kind.
loupe::Json overlap_ratio(PandasNumber exposed, PandasNumber total) {
  if (total.value <= 0.0) return nullptr;
  return to_json(py_round(py_float(1.0 - exposed.value / total.value), 4));
}

// exposed / span * 100, 2 decimals; the int 0 for an empty span.
loupe::Json percent_of(PandasNumber exposed, PandasNumber span) {
  if (span.value <= 0.0) return 0;
  return to_json(py_round(py_float(exposed.value / span.value * 100.0), 2));
}

}  // namespace

loupe::Json overlap_analysis(const std::vector<GpuEvent>& events, bool integer_times) {
  loupe::Json out = loupe::Json::object();
  if (events.empty()) return out;
  std::vector<GpuInterval> intervals;
  intervals.reserve(events.size());
  for (const GpuEvent& e : events) {
    if (!e.has_ts) return loupe::Json(loupe::Json::Object{{"error", "'ts'"}});
    if (!e.has_dur) return loupe::Json(loupe::Json::Object{{"error", "'dur'"}});
    intervals.push_back({e.ts, e.ts + e.dur, e.cls});
  }
  const IntervalMetrics m = compute_interval_metrics(intervals, integer_times);
  out["total_time_us"] = to_json(py_round(m.total, 2));
  out["computation_time_us"] = to_json(py_round(m.computation, 2));
  out["total_comm_time_us"] = to_json(py_round(m.total_comm, 2));
  out["exposed_comm_time_us"] = to_json(py_round(m.exposed_comm, 2));
  out["total_memcpy_time_us"] = to_json(py_round(m.total_memcpy, 2));
  out["exposed_memcpy_time_us"] = to_json(py_round(m.exposed_memcpy, 2));
  out["comm_overlap_ratio"] = overlap_ratio(m.exposed_comm, m.total_comm);
  out["memcpy_overlap_ratio"] = overlap_ratio(m.exposed_memcpy, m.total_memcpy);
  out["comm_percent_of_total"] = percent_of(m.exposed_comm, m.total);
  out["memcpy_percent_of_total"] = percent_of(m.exposed_memcpy, m.total);
  return out;
}

}  // namespace loupe::core::prepare::mk
