// Default mode: unified rows timed on matmul_ogs MoE kernels get the `MoE_unfused` category and
// Loupe's model of them (moe_matmul_ogs.hpp), with shapes from the enclosing vllm::moe_forward
// op when the trace has it (docs/deviations.md, "MoE matmuls (matmul_ogs)").
#pragma once

#include "loupe/core/prepare/trace_arg_cache.hpp"
#include "loupe/core/trace/event_tree.hpp"
#include "unified_rows.hpp"

namespace loupe::core::prepare::unified {

// Whether `row` was modeled as matmul_ogs MoE work (category and params set, and the metrics
// when the shapes were found). Rows that already have metrics are left alone.
bool apply_matmul_ogs_model(TraceArgCache& args, const trace::EventTree& tree,
                            const perf::Arch* arch, UnifiedRow& row);

}  // namespace loupe::core::prepare::unified
