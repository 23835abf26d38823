// The GPU ops of each unified_perf_summary.csv group: what a finding about an ops-table row is
// about, in GPU ops (`trace/op_groups.csv`, docs/findings-schema.md "Claims").
#pragma once

#include <cstdint>
#include <vector>

#include "loupe/core/trace/trace_model.hpp"

namespace loupe::core::prepare {

// One group (one CSV row) of the summary: its ex_UID and every GPU op its rows launched.
struct OpGroupKernels {
  std::int64_t ex_uid = 0;
  std::vector<trace::Uid> kernels;
};

}  // namespace loupe::core::prepare
