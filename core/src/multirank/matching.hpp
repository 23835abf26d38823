// Matching collectives across ranks (docs/multirank.md): the n-th kernel (by start time) of a
// rank in a process group is collective "<group>_<n>" on every member; without group metadata,
// the n-th kernel of each rank is collective "<n>".
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "dict_rows.hpp"
#include "loupe/core/multirank/collective_report.hpp"
#include "loupe/core/prepare/coll/collective_rows.hpp"

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

// The first of `fields` on which the members of `c` disagree (missing values compare equal to
// each other), or empty.
std::string mismatched_field(const Collective& c,
                             std::initializer_list<prepare::coll::Field> fields);
// `c` left out of the matched tables because its members disagree on `field`.
InputProblem mismatch_problem(const Collective& c, const std::string& field);

// Json values of a row's ts / dur / message sizes as TraceLens's DataFrame holds them.
Json ts_value(const prepare::coll::CollectiveRow& row);
Json dur_value(const prepare::coll::CollectiveRow& row);
Json in_mb_value(const prepare::coll::CollectiveRow& row);
Json out_mb_value(const prepare::coll::CollectiveRow& row);

// nccl_long.csv: one row per collective kernel per rank.
DictRows long_table(const std::vector<MatchedRow>& rows, std::vector<std::string>& order);

}  // namespace loupe::core::multirank
