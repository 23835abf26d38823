// Time arithmetic policy (spec §1.3, §5.3). Exact: int64 nanoseconds everywhere.
// TraceLensCompat: TraceLens's doubles (ts_us = ns / 1000.0, end = ts_us + dur_us), which
// reproduces its rounding artifacts (e.g. python-frame "bleed" drops) bit for bit.
#pragma once

#include <cstdint>

#include "loupe/core/trace/trace_model.hpp"

namespace loupe::core::trace {

enum class TimeMode : std::uint8_t { kExact, kTraceLensCompat };

// Time values of one event in either mode. `one_us` is the bleed tolerance (§2.5 c).
struct ExactTime {
  using Value = std::int64_t;
  static constexpr Value one_us = 1000;
  static Value start(const TraceModel& m, Uid u) { return m.event(u).ts_ns; }
  static Value end(const TraceModel& m, Uid u) { return m.event(u).ts_ns + m.event(u).dur_ns; }
  static double to_us(Value v) { return static_cast<double>(v) / 1000.0; }
};

struct CompatTime {
  using Value = double;
  static constexpr Value one_us = 1.0;
  static Value start(const TraceModel& m, Uid u) { return m.ts_us(u); }
  static Value end(const TraceModel& m, Uid u) { return m.ts_us(u) + m.dur_us(u); }
  static double to_us(Value v) { return v; }
};

}  // namespace loupe::core::trace
