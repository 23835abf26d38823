// The GPU's launch queue as evidence for the idle mechanisms (docs/report.md, "Steps"): ops
// launched but not yet started (loupe/queue_depth.hpp), per device over its GPU span and inside
// its idle gaps. Idle time with ops queued is not launch overhead: a well-fed queue is not
// launch-bound.
#pragma once

#include <cstdint>

#include "gap_attribution.hpp"
#include "loupe/json_value.hpp"

namespace loupe::cpu_idle {

struct QueueEvidence {
  bool evaluated = false;      // some op has a recorded launch
  double mean_depth = 0.0;     // time-weighted over the GPU span, summed over devices' spans
  std::int64_t max_depth = 0;  // on any one device
  std::int64_t span_ns = 0;
  std::int64_t empty_ns = 0;        // span time with no op queued
  std::int64_t idle_ns = 0;         // the gaps' time
  std::int64_t idle_queued_ns = 0;  // gap time with at least one op queued
  double empty_percent() const;
  double idle_queued_percent() const;
};

QueueEvidence queue_evidence(const Breakdown& b);

// The metrics block (idle_breakdown.queue).
Json queue_evidence_json(const QueueEvidence& q);

}  // namespace loupe::cpu_idle
