// memcpy_summary (§3.5.1-§3.5.2) and nccl_summary (§3.5.3) of the data file.
#pragma once

#include <vector>

#include "gpu_events.hpp"
#include "loupe/json_value.hpp"

namespace loupe::core::prepare::mk {

loupe::Json memcpy_summary(const trace::TraceModel& model, const std::vector<GpuEvent>& events,
                           bool integer_times);
loupe::Json nccl_summary(const trace::TraceModel& model, const std::vector<GpuEvent>& events,
                         bool integer_times);

}  // namespace loupe::core::prepare::mk
