// Matching collectives across ranks (docs/multirank.md): the n-th kernel (by start time) of a
// rank in a process group is collective "<group>_<n>" on every member; without group metadata,
// the n-th kernel of each rank is collective "<n>". What the collective report's tables are built
// from, and what the cross-rank report (core/include/loupe/core/report/cross_rank.hpp) reads.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "loupe/core/prepare/coll/collective_rows.hpp"
#include "loupe/json_value.hpp"

namespace loupe::core::multirank {

struct MatchedRow {
  const prepare::coll::CollectiveRow* row = nullptr;
  std::string collective_id;
  std::int64_t index_in_group = 0;
};

// `rows`: every rank's rows, ranks ascending, each rank's in trace order, groups named.
// The result keeps that order (TraceLens's df_long).
std::vector<MatchedRow> match_collectives(const std::vector<prepare::coll::CollectiveRow>& rows,
                                          bool by_stream_order);

// The collectives in order of first appearance, each with its rows (ranks ascending).
struct Collective {
  std::string id;
  std::vector<const MatchedRow*> members;
};
std::vector<Collective> collectives_in_order(const std::vector<MatchedRow>& rows);
// The first metadata field (of those TraceLens checks for implicit-sync collectives) on which
// the members of `c` disagree, or empty.
std::string mismatched_metadata(const Collective& c);

enum class CollectiveType { kAllReduce, kReduceScatter, kAllGather, kAllToAll, kAllToAllV };
std::optional<CollectiveType> collective_type(const Json& collective_name);
// TraceLens's bus-bandwidth factor for a group of `group_size` ranks; NaN without a rule.
double bus_factor(CollectiveType type, const Json& group_size);

// Where a process group's ranks sit (rank r on node r / gpus_per_node): "intra_node",
// "inter_node", or "unknown" when the `Process Group Ranks` value names no rank.
std::string node_span(const Json& group_ranks, int gpus_per_node);

}  // namespace loupe::core::multirank
