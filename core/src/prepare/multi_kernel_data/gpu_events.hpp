// The Step 4.5 population (ALL GPU events, trace order) and the per-event facts the summaries
// need: class (§3.2), memcpy direction (§3.5.1), duration, bytes, stream.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "loupe/core/prepare/gpu_intervals.hpp"
#include "loupe/core/trace/trace_model.hpp"

namespace loupe::core::prepare::mk {

// What Python would have raised (the message becomes the payload's "error").
class StepError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class Direction : std::uint8_t { kD2H, kH2D, kD2D, kOther };
inline constexpr const char* kDirectionNames[] = {"D2H", "H2D", "D2D", "other"};

// Lower-cased name matched against the §3.5.1 patterns, first match wins.
Direction memcpy_direction(std::string_view name);

struct GpuEvent {
  trace::Uid uid = trace::kNoUid;
  trace::GpuClass cls = trace::GpuClass::kComputation;
  bool has_ts = false;
  bool has_dur = false;
  double ts = 0.0;   // µs
  double dur = 0.0;  // µs (0 when absent: `dur or 0`)
};

// Every kernel / gpu_memcpy / gpu_memset event, in trace order.
std::vector<GpuEvent> collect_gpu_events(const trace::TraceModel& model);

// `args.bytes or 0` as Python sums it. Throws StepError for a non-numeric value.
std::int64_t memcpy_bytes(const trace::TraceModel& model, trace::Uid uid);
// `args.stream or None`.
std::optional<std::int64_t> event_stream(const trace::TraceModel& model, trace::Uid uid);

}  // namespace loupe::core::prepare::mk
