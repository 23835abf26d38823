// What the collective report's tables need beyond the matching itself
// (core/include/loupe/core/prepare/collective_matching.hpp): members that disagree, TraceLens's
// values of a row, and nccl_long.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "dict_rows.hpp"
#include "loupe/core/prepare/coll/collective_rows.hpp"
#include "loupe/core/prepare/collective_matching.hpp"
#include "loupe/core/prepare/collective_report.hpp"

namespace loupe::core::multirank {

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
