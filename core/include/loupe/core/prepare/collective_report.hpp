// The multi-rank collective report (docs/multirank.md): every rank's collective kernels matched
// across ranks by process group and order, written as TraceLens's collective_report CSVs
// (nccl_long, nccl_summary_long, nccl_implicit_sync, nccl_summary_implicit_sync, nccl_all2allv,
// nccl_summary_all2allv, straggler_summary), plus what was excluded and why.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loupe/core/prepare/coll/collective_rows.hpp"
#include "loupe/core/trace/trace_model.hpp"

namespace loupe::core::multirank {

// What one rank contributes: its collective kernels (unnamed process groups, see
// prepare::coll::unnamed_collective_rows) and its device count. Compact: a few hundred bytes
// per collective, whatever the trace's size.
struct RankCollectives {
  int rank = 0;
  std::vector<prepare::coll::CollectiveRow> rows;
  std::optional<int> device_count;  // entries of the trace's deviceProperties, when present
  // What the trace's distributedInfo says about itself, when it says it.
  std::optional<int> own_rank;
  std::optional<int> own_world_size;
};

RankCollectives extract_rank_collectives(const trace::TraceModel& model, int rank);

struct ReportFile {
  std::string name;  // e.g. "nccl_long.csv"
  std::string text;  // the CSV text
};

// A problem of the input: a rank that contributed nothing, a collective whose members
// disagree on its metadata (left out of the matched tables: `excluded`), or one present on
// some members of its group only (matched over the ranks that have it, as TraceLens does).
struct InputProblem {
  std::optional<int> rank;    // the rank concerned, when one is
  std::string collective_id;  // "<group>_<index>", empty for a whole rank
  std::string reason;         // one sentence
  bool excluded = false;      // left out of nccl_implicit_sync / nccl_all2allv and their summaries
};

struct CollectiveReport {
  std::vector<ReportFile> files;  // in TraceLens's writing order; absent tables are not listed
  std::vector<InputProblem> problems;
  std::optional<int> gpus_per_node;      // used for node_id / node_span
  bool matched_by_stream_order = false;  // TraceLens's simplified mode (no group metadata)
};

struct ReportOptions {
  int world_size = 0;
  // Node size for node_id / node_span; nullopt takes the device count of the lowest rank
  // present (TraceLens reads it from rank 0's deviceProperties).
  std::optional<int> gpus_per_node;
};

// `ranks` in any order; ranks missing from 0..world_size-1 are listed in `problems`. Never
// throws on content.
CollectiveReport build_collective_report(std::vector<RankCollectives> ranks,
                                         const ReportOptions& options);

}  // namespace loupe::core::multirank

namespace loupe::core::multirank {

// The compact per-rank table as one line of JSON, and back: what a worker (a child process or
// an MPI rank) hands to the process writing the report. Numbers round-trip exactly; nullopt
// when the text is not such a document.
std::string serialize_rank_collectives(const RankCollectives& rank);
std::optional<RankCollectives> parse_rank_collectives(std::string_view text);

}  // namespace loupe::core::multirank
