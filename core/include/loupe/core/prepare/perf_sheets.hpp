// TraceLens's per-family op sheets (docs/contracts/trace_model.md §3.7): `GEMM.csv`, `CONV_fwd.csv`,
// `CONV_bwd.csv`, `UnaryElementwise.csv`, `BinaryElementwise.csv`, `Normalization.csv`,
// `SDPA_fwd.csv`, `Reduce_fwd.csv`, `Reduce_bwd.csv`, … — every instance of the family's op
// names with perf-model metrics over its subtree kernels (or its autograd backward's), grouped
// by the model parameters and kernel count, byte for byte as TraceLens writes them with
// --group_by_num_kernels.
#pragma once

#include <string>
#include <vector>

#include "loupe/core/prepare/perf_model.hpp"
#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/trace_model.hpp"

namespace loupe::core::prepare {

struct PerfSheet {
  std::string file_name;  // e.g. "GEMM.csv", "CONV_bwd.csv"
  std::string csv;
};

// The non-empty sheets in TraceLens's order (families in perf-model registry order; `_fwd`
// before `_bwd`). None for a GPU-only trace. `tree` must be built with TimeMode::
// kTraceLensCompat (and python events, as the reference reports were). With `arch` the
// roofline columns are included.
std::vector<PerfSheet> build_perf_sheets(const trace::TraceModel& model,
                                         const trace::EventTree& tree, const perf::Arch* arch);

}  // namespace loupe::core::prepare
