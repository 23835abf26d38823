// One row per op instance of a per-family sheet (docs/contracts/trace_model.md §3.7, TraceLens's
// build_df_perf_metrics): the op's identity and args, the model's parameters, the kernels it
// is timed on with their busy time, and the metric columns.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "loupe/core/prepare/kernel_details_summary.hpp"
#include "loupe/core/prepare/perf_model.hpp"
#include "loupe/core/prepare/perf_model_cache.hpp"
#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/trace_model.hpp"

namespace loupe::core::prepare::sheets {

struct SheetRow {
  trace::Uid uid = trace::kNoUid;
  std::string name;
  std::string process_name, process_label, thread_name;
  // str() of Input Dims / type / Strides / Concrete Inputs (TraceArgCache::python_str, which
  // owns them); null where the op has no such arg.
  const std::string* args[4] = {};
  // The model's evaluation, shared by the rows of the same input: its params are the
  // `param: *` columns, in the model's order.
  std::shared_ptr<const ModelEvaluation> model;
  std::vector<KernelDetail> kernel_details;  // by start time
  PandasNumber kernel_time_us;               // busy time of those kernels
  perf::Metrics metrics;
};

// Rows for `ops` (UID order) with forward metrics over each op's subtree kernels, or backward
// metrics over the kernels of its linked autograd events. Ops whose model fails, raises "not
// implemented" or has no formula in Loupe are left out, and so, for backward, are ops without
// backward events. The args values come from `models.args()` (its model is the trace's), which
// must outlive the rows.
std::vector<SheetRow> build_sheet_rows(PerfModelCache& models, const trace::EventTree& tree,
                                       std::span<const trace::Uid> ops, perf::Direction direction,
                                       const perf::Arch* arch);

}  // namespace loupe::core::prepare::sheets
