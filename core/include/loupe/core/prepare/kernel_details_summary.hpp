// `kernel_details_summary` and `trunc_kernel_details` (docs/contracts/trace_model.md §3.5.1):
// per-position statistics of the kernel lists of a group of ops, as the Python repr TraceLens
// writes.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "loupe/core/prepare/gpu_intervals.hpp"  // PandasNumber
#include "loupe/core/trace/trace_model.hpp"

namespace loupe::core::prepare {

// One `kernel_details` entry: {'name', 'dur', 'stream'}. The name is a view of the trace
// model's string (every kernel launch has one, in three tables): valid while the model is.
struct KernelDetail {
  std::string_view name;
  PandasNumber dur;
  std::string stream_repr;  // repr of args.stream ("0", "None" when absent)
};

// kernel_details of GPU ops, in the given order.
std::vector<KernelDetail> kernel_details_of(const trace::TraceModel& model,
                                            std::span<const trace::Uid> gpu_ops);

// One summary entry: template name / stream plus numpy statistics of the durations seen at
// that position. Int-typed durations keep int total / min / max (numpy int64 array).
struct KernelStats {
  std::string_view name;  // the template row's KernelDetail::name
  std::string stream_repr;
  std::size_t count = 0;
  PandasNumber total, min, max;
  double mean = 0, median = 0, std_dev = 0;
};

// The group's rows in row order. Template = first non-empty list; rows of another length are
// skipped; the result is sorted by (total, name) ascending (stable).
std::vector<KernelStats> summarize_kernel_details(
    std::span<const std::span<const KernelDetail>> rows);

// str() of the summary list: "[{'name': ..., 'stream': 0, 'count': 3, ...}]".
std::string kernel_details_summary_repr(std::span<const KernelStats> stats);
// trunc_kernel_details: names cut to 64 code points + "...", mean rounded to 2 decimals
// (numpy rounding); nullopt (an empty cell) when the summary is empty.
std::optional<std::string> trunc_kernel_details_repr(std::span<const KernelStats> stats);

}  // namespace loupe::core::prepare
