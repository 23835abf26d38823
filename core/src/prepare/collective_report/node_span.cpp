#include "node_span.hpp"

#include <cctype>
#include <set>

#include "dict_rows.hpp"
#include "json_text.hpp"
#include "loupe/core/prepare/coll/key_columns.hpp"

namespace loupe::core::multirank {

namespace {

std::vector<int> digit_runs(const std::string& text) {
  std::vector<int> ranks;
  std::size_t i = 0;
  while (i < text.size()) {
    if (std::isdigit(static_cast<unsigned char>(text[i])) == 0) {
      ++i;
      continue;
    }
    long long value = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) != 0) {
      value = value * 10 + (text[i] - '0');
      if (value > 1'000'000'000) value = 1'000'000'000;
      ++i;
    }
    ranks.push_back(static_cast<int>(value));
  }
  return ranks;
}

std::vector<int> list_ranks(const Json& list) {
  std::vector<int> ranks;
  for (const Json& item : list.as_array()) {
    if (item.is_number()) ranks.push_back(static_cast<int>(item.as_double()));
  }
  return ranks;
}

}  // namespace

std::vector<int> parse_group_ranks(const Json& value) {
  if (value.is_array()) return list_ranks(value);
  if (!value.is_string()) return {};
  if (const auto parsed = prepare::try_parse_json_text(value.as_string())) {
    if (parsed->is_array()) return list_ranks(*parsed);
    return {};
  }
  return digit_runs(value.as_string());
}

std::string node_span(const Json& group_ranks, int gpus_per_node) {
  const std::vector<int> ranks = parse_group_ranks(group_ranks);
  if (ranks.empty()) return "unknown";
  std::set<int> nodes;
  for (const int r : ranks) nodes.insert(r / gpus_per_node);
  return nodes.size() == 1 ? "intra_node" : "inter_node";
}

void add_node_columns(DictRows& table, std::vector<std::string>& order, int gpus_per_node) {
  if (table.row_count() == 0) return;
  const bool has_rank = table.has_column("rank");
  const bool has_group = table.has_column("Process Group Ranks");
  for (std::size_t r = 0; r < table.row_count(); ++r) {
    if (has_rank) {
      const Json& rank = table.at(r, "rank");
      table.set_at(r, "node_id",
                   rank.is_int() ? Json(rank.as_int() / gpus_per_node) : Json(nullptr));
    }
    if (has_group)
      table.set_at(r, "node_span",
                   Json(node_span(table.at(r, "Process Group Ranks"), gpus_per_node)));
  }
  if (has_rank) order.emplace_back("node_id");
  if (has_group) order.emplace_back("node_span");
}

}  // namespace loupe::core::multirank
