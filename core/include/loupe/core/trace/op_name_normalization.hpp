// Op names made stable across runs, as TraceLens's tree does before any table
// (docs/contracts/trace_model.md §2.10): SGLang's profiler names its ops
// `sglang_profiler::<op>_<n>` with a per-call-site counter `<n>`; the counter is dropped so that
// every call site of an op shares one name and reaches that op's perf model.
#pragma once

#include <string_view>

#include "loupe/core/trace/trace_model.hpp"

namespace loupe::core::trace {

// "sglang_profiler::utils_apply_qk_norm_487" -> "sglang_profiler::utils_apply_qk_norm"; any other
// name (no trailing "_<digits>", nothing between the prefix and the suffix) -> empty.
std::string_view stable_sglang_op_name(std::string_view name);

// Renames the host events (cpu ops and runtime calls) of every `sglang_profiler::<op>_<n>` name
// whose earliest such event (by start time, then file order) is a cpu op, like TraceLens.
// Returns the number of events renamed.
std::size_t normalize_op_names(TraceModel& model);

}  // namespace loupe::core::trace
