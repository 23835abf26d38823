// Default mode (docs/deviations.md, multi-kernel "S1"): device-to-host and
// host-synchronous copies that leave the GPU idle. From the raw trace's GPU timeline
// (trace/gpu_events.csv, present when the run starts from a trace): per device, the busy
// intervals of all GPU ops; a gap that opens when the interval's last op is such a copy is idle
// time the copy's host wait causes (the host reads the result before it launches more work).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "loupe/json_value.hpp"
#include "timeline.hpp"

namespace loupe::multi_kernel {

inline constexpr const char* kGpuEventsView = "trace/gpu_events.csv";
// A card when the idle after such copies reaches this share of the GPU time span (percent).
inline constexpr double kSyncIdleCardPercent = 1.0;

struct SyncIdleSource {
  std::string op_name;        // the nearest cpu_op of the copy's launch ("" when unlinked)
  std::string launcher_name;  // the runtime call
  std::string direction;
  std::int64_t gaps = 0;
  double idle_ms = 0.0;
};

struct SyncIdle {
  bool evaluated = false;   // false: no raw-trace GPU timeline
  std::int64_t copies = 0;  // D2H copies and copies from a synchronous runtime call
  std::int64_t copies_before_idle = 0;
  double idle_after_ms = 0.0;  // the gaps that open after them
  double total_idle_ms = 0.0;  // every gap between busy intervals, all devices
  double largest_gap_ms = 0.0;
  std::vector<SyncIdleSource> sources;  // by idle time, descending
  // What the cpu_idle analyzer measured the host spending inside blocking calls during GPU
  // idle (its idle_breakdown.by_cause.synchronization_ms), when it ran on this trace. A gap
  // after a copy is only as much a host wait as the host was blocked: the rest of it (data
  // loading, host work) has other causes, and cpu_idle reports them.
  std::optional<double> host_blocked_ms;
  // The idle time this analyzer claims: idle_after_ms, capped by host_blocked_ms.
  double claimed_ms() const {
    return host_blocked_ms ? std::min(idle_after_ms, *host_blocked_ms) : idle_after_ms;
  }
};

inline constexpr const char* kCpuIdleMetrics = "category_data/cpu_idle_metrics.json";

// idle_breakdown.by_cause.synchronization_ms of cpu_idle's metrics, when evaluated.
std::optional<double> cpu_idle_host_blocked_ms(const Json& cpu_idle_metrics);

// `gpu_events` null: not evaluated.
SyncIdle assess_sync_idle(const RawTable* gpu_events);

// The saving if the host stopped waiting: the idle time after the copies (high), 87.5% / 75%
// of it (mid / low), and the impact scores against the GPU time span `span_ms`.
struct SyncIdleSavings {
  double low_ms = 0.0;
  double mid_ms = 0.0;
  double high_ms = 0.0;
  double percent_of_span = 0.0;
};
SyncIdleSavings sync_idle_savings(const SyncIdle& s, double span_ms);
// Whether the idle after the copies is large enough for a finding (kSyncIdleCardPercent).
bool sync_idle_reportable(const SyncIdle& s, double span_ms);

Json sync_idle_json(const SyncIdle& s, double span_ms);

}  // namespace loupe::multi_kernel
