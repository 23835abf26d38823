// The per-kernel table the collective summary starts from (TraceLens's NcclAnalyser df_long
// for one rank): one row per linked collective kernel, in trace order.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "loupe/core/trace/trace_model.hpp"
#include "loupe/json_value.hpp"

namespace loupe::core::prepare::coll {

// The kernel args copied into each row, in TraceLens's column order.
enum Field : std::size_t {
  kGroupName,
  kGroupRanks,
  kCollectiveName,
  kGroupSize,
  kDtype,
  kInNelems,
  kOutNelems,
  kInSplit,
  kOutSplit,
  kStream,
  kFieldCount
};
inline constexpr std::array<std::string_view, kFieldCount> kFieldNames = {
    "Process Group Name", "Process Group Ranks", "Collective name", "Group size",     "dtype",
    "In msg nelems",      "Out msg nelems",      "In split size",   "Out split size", "stream"};

struct CollectiveRow {
  std::array<Json, kFieldCount> fields;  // json.loads values; null when the key is absent
  std::optional<double> in_msg_mb;       // nelems * bytes(dtype) / 2^20, when computable
  std::optional<double> out_msg_mb;
  double ts = 0.0;          // the kernel's ts, µs (TraceLens's double)
  double dur = 0.0;         // the kernel's dur, µs (TraceLens's double)
  bool ts_is_int = false;   // written as a JSON integer
  bool dur_is_int = false;  // written as a JSON integer
  int rank = 0;             // the trace's rank (0 for a single trace)
};

// The communication kernels (name matches nccl / rccl / cross_device_reduce, any case) that
// carry a correlation or External id, with the collective name inferred for
// cross_device_reduce kernels, message sizes, and the process-group naming applied.
std::vector<CollectiveRow> collective_rows(const trace::TraceModel& model);

// The same rows before the process-group naming, for a caller that names groups over several
// traces at once (docs/multirank.md): the rank is set on every row.
std::vector<CollectiveRow> unnamed_collective_rows(const trace::TraceModel& model, int rank);
// True when no row names a process group (or all use the placeholder) and all run on one
// stream: the rows are then matched by their order on that stream.
bool lacks_group_metadata(const std::vector<CollectiveRow>& rows);
// Applies the naming: "all" for every row when `by_stream_order`, else "Unknown_Group" for a
// row without a name.
void name_groups(std::vector<CollectiveRow>& rows, bool by_stream_order);

}  // namespace loupe::core::prepare::coll
