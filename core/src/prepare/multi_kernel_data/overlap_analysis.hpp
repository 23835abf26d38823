// overlap_analysis (§3.5.4): the interval metrics over ALL GPU events as the 10 data-file keys.
#pragma once

#include <vector>

#include "gpu_events.hpp"
#include "loupe/json_value.hpp"

namespace loupe::core::prepare::mk {

// `{}` when there are no GPU events; `{"error": msg}` when TraceLens's computation raised.
loupe::Json overlap_analysis(const std::vector<GpuEvent>& events, bool integer_times);

}  // namespace loupe::core::prepare::mk
