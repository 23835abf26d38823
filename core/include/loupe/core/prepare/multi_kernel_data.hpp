// Native producer of TraceLens's `category_data/multi_kernel_data.json` (orchestrator Step 4.5)
// and of the manifest's `gpu_utilization` block (Step 2). Spec: docs/contracts/multi_kernel.md
// §2.3, §2.4, §3.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/gpu_timeline.hpp"
#include "loupe/core/trace/trace_model.hpp"
#include "loupe/json_value.hpp"

namespace loupe::core::prepare {

struct MultiKernelOptions {
  // Python keeps JSON integers as ints: when every GPU event of the trace has integer `ts`
  // and `dur` tokens, sums and interval lengths are written as integers ("10890", not
  // "10890.0"). The trace model does not record token spelling, so the caller says so
  // (see gpu_times_are_integers()).
  bool integer_times = false;
};

// The whole multi_kernel_data.json document (§2.3) from ALL GPU events of the trace (every
// `kernel` / `gpu_memcpy` / `gpu_memset` event, linked or not). On a failure TraceLens would
// have raised inside Step 4.5 the §2.3 fallback payload (zero counts + "error") is returned.
loupe::Json build_multi_kernel_data(const trace::TraceModel& model,
                                    const MultiKernelOptions& options = {});

// The text TraceLens writes for it (json.dump indent=2, no trailing newline).
std::string multi_kernel_data_text(const loupe::Json& data);

// Step 5's rule: the multi_kernel category exists iff any memcpy or communication event.
bool has_multi_kernel_events(const loupe::Json& data);

// `gpu_utilization` (§2.4) from gpu_timeline.csv text, read the way the orchestrator reads it
// (pandas' float parser, last row wins per type, missing rows -> 0).
loupe::Json gpu_utilization_from_csv(std::string_view gpu_timeline_csv);

// `gpu_utilization` from a trace: the perf report's timeline (LINKED GPU events, or all of
// them for a GPU-only trace) rendered as TraceLens's CSV and read back. Null Json when the
// trace has no GPU events (TraceLens's perf report fails there).
loupe::Json gpu_utilization_from_trace(const trace::TraceModel& model,
                                       const trace::EventTree& tree);

// "D2H", "H2D", "D2D" or "other": the direction a memcpy's name says (§3.5.1 patterns).
std::string_view memcpy_direction_name(std::string_view name);

// True when every GPU event (kernel, gpu_memcpy, gpu_memset) of the trace wrote both `ts` and
// `dur` as JSON integer literals (and there is at least one GPU event).
bool gpu_times_are_integers(const trace::TraceModel& model);

}  // namespace loupe::core::prepare
