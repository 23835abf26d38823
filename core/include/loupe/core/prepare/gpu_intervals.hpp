// The interval engine behind TraceLens's GPU timeline and overlap analysis (spec
// docs/contracts/multi_kernel.md §3.3): unions of computation / communication / memcpy intervals,
// exposed time by set subtraction, span, busy and idle time. Values keep Python's int/float
// spelling.
#pragma once

#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "loupe/core/trace/gpu_timeline.hpp"

namespace loupe::core::prepare {

// A number as Python holds it: an int or a float, as the pandas tables of the preparation read
// and sum it (held as a double, like the column's values). Not the SDK's loupe::PyNumber (an
// exact int64), which the report and the plugins use: the prepared CSV bytes depend on this one.
struct PandasNumber {
  double value = 0.0;
  bool is_int = true;
};

struct GpuInterval {
  double start = 0.0;  // ts, µs (the Python float of the token)
  double end = 0.0;    // ts + dur, in double
  trace::GpuClass cls = trace::GpuClass::kComputation;
};

struct IntervalMetrics {
  PandasNumber computation, exposed_comm, exposed_memcpy, busy, idle, total, total_comm,
      total_memcpy;
  std::optional<PandasNumber> micro_idle, macro_idle;  // with a micro-idle threshold
  std::size_t all = 0, computation_count = 0, communication_count = 0, memcpy_count = 0;
};

// `integer_times`: every interval bound is a Python int (integer ts and dur tokens).
// Precondition: `events` is not empty.
IntervalMetrics compute_interval_metrics(std::span<const GpuInterval> events, bool integer_times,
                                         std::optional<double> micro_idle_threshold_us = {});

// compute_interval_metrics(...).busy alone, without the per-class unions: the ops tables and the
// perf sheets ask it of every op's kernels. `spans` are (start, end) pairs, reordered and merged
// in place. Precondition: not empty.
PandasNumber busy_time(std::vector<std::pair<double, double>>& spans, bool integer_times);

}  // namespace loupe::core::prepare
