// A trace op's arguments as the perf models read them: the four shape/type columns the
// profiler records (Input Dims, Input type, Input Strides, Concrete Inputs), parsed from the
// trace's args, plus the names of the kernels it is timed on.
#pragma once

#include <array>
#include <span>
#include <string_view>

#include "loupe/core/prepare/perf_model.hpp"
#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/trace_model.hpp"
#include "loupe/json_value.hpp"

namespace loupe::core::prepare {

// The args keys in TraceLens's column order.
inline constexpr std::array<const char*, 4> kTraceArgKeys = {"Input Dims", "Input type",
                                                             "Input Strides", "Concrete Inputs"};

// args[key] of the op, parsed; null when the trace does not record it.
Json trace_arg_json(const trace::TraceModel& model, trace::Uid uid, std::string_view key);

// A pseudo op's own args besides the shapes (trace/pseudo_ops.hpp: its top-k, gating and
// variant, which its model reads) as a JSON object; null for every other op.
Json pseudo_op_args(const trace::TraceModel& model, trace::Uid uid);

// The perf-model arguments of `uid`; `kernels` gives kernel_names, in the given order, and the
// tree (when given) the op's step annotation.
perf::OpArgs trace_op_args(const trace::TraceModel& model, const trace::EventTree* tree,
                           trace::Uid uid, std::span<const trace::Uid> kernels);

// §3.6.1 has_model(e): a perf model exists for the op's name and, for the classes that check
// the op's trace args (the inductor model), they describe the kernel.
bool trace_op_has_model(const trace::TraceModel& model, trace::Uid uid);

}  // namespace loupe::core::prepare
