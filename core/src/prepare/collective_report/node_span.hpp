// Node placement of ranks and process groups (docs/multirank.md): rank r sits on node
// r / gpus_per_node; a group is intra_node when all its ranks share a node.
#pragma once

#include <string>
#include <vector>

#include "loupe/core/prepare/collective_matching.hpp"
#include "loupe/json_value.hpp"

namespace loupe::core::multirank {

// The ranks of a `Process Group Ranks` value: a JSON list, or its text "[0, 1]"; the digit runs
// of any other text; empty for anything else.
std::vector<int> parse_group_ranks(const Json& value);

class DictRows;
// Adds node_id (from a `rank` column) and node_span (from a `Process Group Ranks` column) to
// every row and to `order`, when the table has those columns.
void add_node_columns(DictRows& table, std::vector<std::string>& order, int gpus_per_node);

}  // namespace loupe::core::multirank
