// The matched tables of the collective report (docs/multirank.md): one row per collective
// (implicit-sync collectives and all-to-all-v), their summaries and the straggler summary.
#pragma once

#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "dict_rows.hpp"
#include "loupe/core/prepare/collective_report.hpp"
#include "matching.hpp"

namespace loupe::core::multirank {

// A cell with no value (pandas' NaN).
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The name of a per-rank column: "rank_<rank>_<what>".
inline std::string rank_column(int rank, const char* what) {
  return "rank_" + std::to_string(rank) + "_" + what;
}

// A table and its column order, ready for render_csv.
struct Table {
  DictRows rows;
  std::vector<std::string> order;
  std::vector<std::size_t> row_order;  // defaults to table order when empty
};

// nccl_implicit_sync (per-rank columns included). Collectives whose members disagree on their
// metadata are left out and added to `problems`.
Table implicit_sync_table(const std::vector<Collective>& collectives, bool by_stream_order,
                          std::vector<InputProblem>& problems);
// nccl_summary_implicit_sync; nullopt when there is no implicit-sync collective.
std::optional<Table> implicit_sync_summary(const Table& detailed);
// straggler_summary from the detailed implicit-sync table and every rank's kernels.
std::optional<Table> straggler_summary(const Table& detailed, const std::vector<MatchedRow>& rows);

// nccl_all2allv (per-rank columns included), sorted by data communicated; nullopt when there
// is no all-to-all-v.
std::optional<Table> all2allv_table(const std::vector<Collective>& collectives,
                                    std::vector<InputProblem>& problems);
std::optional<Table> all2allv_summary(const Table& detailed);

}  // namespace loupe::core::multirank
