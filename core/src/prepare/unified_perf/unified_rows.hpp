// One row per collected event (docs/contracts/trace_model.md §3.6.2): identity and args columns,
// CPU duration, the GPU ops it covers with their busy time, and the perf-model metrics.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "collect_events.hpp"
#include "loupe/core/prepare/gpu_intervals.hpp"
#include "loupe/core/prepare/kernel_details_summary.hpp"
#include "loupe/core/prepare/ops_tables.hpp"
#include "loupe/core/prepare/perf_model.hpp"
#include "loupe/core/prepare/trace_arg_cache.hpp"

namespace loupe::core::prepare::unified {

// One per collected event (hundreds of thousands on a big trace): the texts are views, of the
// collected event's name, of the trace model's thread names and of the args cache's str()
// values, not copies.
struct UnifiedRow {
  trace::Uid source = trace::kNoUid;  // the event, or the node a synthetic row copies
  std::int64_t uid = 0;               // the UID column (fresh for synthetic rows)
  bool synthetic = false;
  std::string_view name;
  std::string category;  // short: no allocation
  std::string_view process_name, process_label, thread_name;
  // str() of Input Dims/type/Strides/Concrete Inputs, owned by the args cache; nullptr = None.
  const std::string* args[4] = {};
  PandasNumber duration_us;            // the op's CPU duration
  bool has_duration = true;            // false for an op without one (a pseudo op above a launch)
  std::vector<trace::Uid> gpu_events;  // §2.6 order
  std::vector<KernelDetail> kernel_details;
  PandasNumber kernel_time_us;  // busy time of gpu_events
  bool has_perf_model = false;
  bool has_metrics = false;  // the metric fields below hold model values
  double gflops = 0, data_moved_mb = 0, flops_per_byte = 0, tflops_per_s = 0, tb_per_s = 0;
  double roofline_time_us = 0, pct_roofline = 0;
  std::string compute_spec, roofline_bound;
  std::optional<std::string> perf_params;  // repr of the params dict; nullopt = None
};

// Rows in collection order; rows whose model raises "not implemented" are dropped (§3.6.2).
// `loupe_models` (default mode) adds Loupe's models beyond TraceLens (moe_rows.hpp). The rows
// are valid while `args` (with its trace model) and `collected` are.
std::vector<UnifiedRow> build_unified_rows(TraceArgCache& args, const trace::EventTree& tree,
                                           std::span<const KernelLauncher> launchers,
                                           std::span<const CollectedEvent> collected,
                                           const perf::Arch* arch, bool loupe_models = false);

// The model's params and metric columns on the row.
void apply_metrics(const perf::ModelResult& result, const perf::Arch* arch, UnifiedRow& row);
// The same with the params' repr already computed (ModelEvaluation::params_repr).
void apply_metrics(const perf::ModelResult& result, std::string params_repr, const perf::Arch* arch,
                   UnifiedRow& row);

}  // namespace loupe::core::prepare::unified
