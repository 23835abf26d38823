// What a serving-engine trace says per step and per GPU-graph replay (docs/report.md, "Serving
// steps and GPU graphs"), for default mode only: the --compat tracelens files never read it.
//
//  * Steps: every user annotation whose label is a serving engine's step label
//    (loupe/core/trace/step_labels.hpp); a step label inside another one (SGLang writes its
//    step[...] inside the vLLM-style execute_ label) is the same step. Per step: its phase,
//    requests and tokens, its host time, and the GPU work launched inside it (GPU ops whose
//    launching runtime call starts within the step): busy time (union of the ops' intervals),
//    the span from the first op's start to the last op's end and the idle time in that span,
//    and how much of the kernel time ran inside GPU-graph replays.
//  * GPU graphs: every cudaGraphLaunch / hipGraphLaunch with the kernels it replayed, attributed
//    to the host op that called it (the nearest cpu_op, else the innermost Python frame outside
//    torch/), the step it ran in, and its kernels by name. A replay with no such caller is
//    unattributed: its kernels and their time are listed as such, never dropped.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/step_labels.hpp"
#include "loupe/core/trace/trace_model.hpp"
#include "loupe/json_value.hpp"

namespace loupe::core::prepare {

struct GraphKernel {
  std::string name;  // full kernel name as the trace has it
  std::int64_t count = 0;
  std::int64_t time_ns = 0;  // sum of durations
};

struct GraphReplay {
  std::string launch_name;  // hipGraphLaunch / cudaGraphLaunch
  std::int64_t launch_ts_ns = 0;
  std::int64_t launch_dur_ns = 0;
  std::string caller;        // the nearest cpu_op, else the innermost non-torch Python frame
  std::string caller_stack;  // host frames above the launch, outermost first, " > "
  std::string step;          // the step label the launch ran in ("" outside any step)
  int step_index = 0;        // 1-based index into ServingSummary::steps (0: outside any step)
  std::int64_t kernel_count = 0;
  std::int64_t kernel_time_ns = 0;   // sum of the replayed ops' durations
  std::int64_t busy_ns = 0;          // union of their intervals
  std::int64_t span_ns = 0;          // first start to last end
  std::vector<GraphKernel> kernels;  // by name, most time first
  bool attributed() const { return !caller.empty(); }
};

struct ServingStep {
  std::string label;                // the outermost step label
  std::vector<std::string> labels;  // every step label of this step, outermost first
  trace::StepLabel parsed;          // merged from the labels (first known phase wins)
  std::int64_t ts_ns = 0;
  std::int64_t dur_ns = 0;
  std::int64_t gpu_ops = 0;
  std::int64_t kernel_time_ns = 0;  // sum of GPU op durations
  std::int64_t busy_ns = 0;
  std::int64_t span_ns = 0;
  std::int64_t graph_launches = 0;
  std::int64_t graph_kernel_time_ns = 0;   // of kernel_time_ns, inside graph replays
  std::int64_t eager_launches = 0;         // runtime calls that launched GPU ops one by one
  std::vector<GraphKernel> eager_kernels;  // the ops launched outside graphs, most time first
  std::int64_t idle_ns() const { return span_ns - busy_ns; }
};

struct ServingSummary {
  std::vector<ServingStep> steps;    // in start order
  std::vector<GraphReplay> replays;  // in launch order
  std::uint64_t graph_launches_without_kernels = 0;
  std::int64_t gpu_busy_ns = 0;  // whole trace: union of every linked GPU op
  std::int64_t gpu_span_ns = 0;
  bool empty() const { return steps.empty() && replays.empty(); }
};

ServingSummary build_serving_summary(const trace::TraceModel& model, const trace::EventTree& tree);

// The summary as the document the report and plugins read ("trace/serving_summary.json"):
// times in ms (3 decimals); kernel names full, with a short form for titles.
Json serving_summary_json(const ServingSummary& summary);

}  // namespace loupe::core::prepare
