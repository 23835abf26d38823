// Which op names have a TraceLens perf model (trace_model.md §3.9.2), as far as
// collect_unified_perf_events needs it: whether a model exists and whether it has a backward.
#pragma once

#include <string_view>

namespace loupe::core::prepare::fusion {

struct PerfModelInfo {
  bool has_model = false;
  bool has_backward = false;
};

PerfModelInfo perf_model_info(std::string_view op_name);

}  // namespace loupe::core::prepare::fusion
