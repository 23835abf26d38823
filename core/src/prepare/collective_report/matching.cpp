#include "matching.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <unordered_map>
#include <utility>

#include "loupe/core/prepare/coll/key_columns.hpp"
#include "loupe/core/prepare/py_repr.hpp"

namespace loupe::core::multirank {

namespace pc = loupe::core::prepare::coll;

std::vector<MatchedRow> match_collectives(const std::vector<pc::CollectiveRow>& rows,
                                          bool by_stream_order) {
  std::vector<MatchedRow> matched(rows.size());
  // Rows of each (group, rank), in order; ranked by ts with ties in row order
  // (Series.rank(method="first")).
  std::map<std::pair<std::string, int>, std::vector<std::size_t>> members;
  std::vector<std::string> group_text(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    matched[i].row = &rows[i];
    group_text[i] = by_stream_order ? std::string()
                                    : prepare::py_json_str(rows[i].fields[pc::kGroupName], true);
    members[{group_text[i], rows[i].rank}].push_back(i);
  }
  for (auto& [key, indices] : members) {
    std::stable_sort(indices.begin(), indices.end(),
                     [&](std::size_t a, std::size_t b) { return rows[a].ts < rows[b].ts; });
    for (std::size_t n = 0; n < indices.size(); ++n) {
      MatchedRow& m = matched[indices[n]];
      m.index_in_group = static_cast<std::int64_t>(n);
      m.collective_id = by_stream_order ? std::to_string(n) : key.first + "_" + std::to_string(n);
    }
  }
  return matched;
}

std::vector<Collective> collectives_in_order(const std::vector<MatchedRow>& rows) {
  std::vector<Collective> collectives;
  std::unordered_map<std::string, std::size_t> index;
  for (const MatchedRow& row : rows) {
    auto [it, inserted] = index.try_emplace(row.collective_id, collectives.size());
    if (inserted) collectives.push_back({row.collective_id, {}});
    collectives[it->second].members.push_back(&row);
  }
  return collectives;
}

std::string mismatched_field(const Collective& c, std::initializer_list<pc::Field> fields) {
  const auto key = [](const Json& value) {
    return pc::is_missing(value) ? std::string("nan") : prepare::py_json_repr(value, true);
  };
  const pc::CollectiveRow& first = *c.members.front()->row;
  for (const pc::Field f : fields) {
    for (const MatchedRow* m : c.members) {
      if (key(m->row->fields[f]) != key(first.fields[f])) return std::string(pc::kFieldNames[f]);
    }
  }
  return {};
}

InputProblem mismatch_problem(const Collective& c, const std::string& field) {
  return {std::nullopt, c.id,
          "its members disagree on '" + field + "'; left out of the matched collective tables",
          true};
}

Json ts_value(const pc::CollectiveRow& row) {
  return row.ts_is_int ? Json(static_cast<std::int64_t>(row.ts)) : Json(row.ts);
}
Json dur_value(const pc::CollectiveRow& row) {
  return row.dur_is_int ? Json(static_cast<std::int64_t>(row.dur)) : Json(row.dur);
}
Json in_mb_value(const pc::CollectiveRow& row) {
  return row.in_msg_mb ? Json(*row.in_msg_mb) : Json(nullptr);
}
Json out_mb_value(const pc::CollectiveRow& row) {
  return row.out_msg_mb ? Json(*row.out_msg_mb) : Json(nullptr);
}

DictRows long_table(const std::vector<MatchedRow>& rows, std::vector<std::string>& order) {
  order = {"collective_id", "index_in_group", "rank"};
  for (const pc::Field f : {pc::kGroupName, pc::kGroupRanks, pc::kCollectiveName, pc::kGroupSize,
                            pc::kDtype, pc::kInNelems}) {
    order.emplace_back(pc::kFieldNames[f]);
  }
  order.insert(order.end(), {"In msg size (MB)", "Out msg nelems", "Out msg size (MB)",
                             "In split size", "Out split size", "stream", "ts", "dur"});
  DictRows table;
  for (const MatchedRow& m : rows) {
    const pc::CollectiveRow& row = *m.row;
    table.add_row();
    table.set("collective_id", Json(m.collective_id));
    table.set("index_in_group", Json(m.index_in_group));
    table.set("rank", Json(row.rank));
    for (std::size_t f = 0; f < pc::kFieldCount; ++f) table.set(pc::kFieldNames[f], row.fields[f]);
    table.set("In msg size (MB)", in_mb_value(row));
    table.set("Out msg size (MB)", out_mb_value(row));
    table.set("ts", ts_value(row));
    table.set("dur", dur_value(row));
  }
  return table;
}

}  // namespace loupe::core::multirank
