#include "loupe/core/prepare/collective_report.hpp"

#include <algorithm>
#include <set>

#include "collective_tables.hpp"
#include "json_text.hpp"
#include "loupe/core/prepare/coll/coll_summary.hpp"
#include "matching.hpp"
#include "node_span.hpp"

namespace loupe::core::multirank {

namespace pc = loupe::core::prepare::coll;

RankCollectives extract_rank_collectives(const trace::TraceModel& model, int rank) {
  RankCollectives result;
  result.rank = rank;
  result.rows = pc::unnamed_collective_rows(model, rank);
  if (const std::string* info = model.trace_metadata_value("distributedInfo")) {
    if (const auto doc = prepare::try_parse_json_text(*info); doc && doc->is_object()) {
      const Json* rank_value = doc->find("rank");
      const Json* world = doc->find("world_size");
      if (rank_value != nullptr && rank_value->is_int()) {
        result.own_rank = static_cast<int>(rank_value->as_int());
      }
      if (world != nullptr && world->is_int()) {
        result.own_world_size = static_cast<int>(world->as_int());
      }
    }
  }
  if (model.trace_metadata_value("deviceProperties") != nullptr) {
    const auto names = model.device_names();
    if (!names.empty()) result.device_count = static_cast<int>(names.size());
  }
  return result;
}

namespace {

std::vector<std::size_t> identity(std::size_t n) {
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  return order;
}

void add_file(CollectiveReport& report, const std::string& name, Table table,
              std::optional<int> gpus_per_node) {
  if (table.row_order.empty()) table.row_order = identity(table.rows.row_count());
  if (gpus_per_node) add_node_columns(table.rows, table.order, *gpus_per_node);
  report.files.push_back({name, render_csv(table.rows, table.order, table.row_order)});
}

// Collectives whose rows come from fewer ranks than their group has.
void note_partial_collectives(const std::vector<Collective>& collectives,
                              std::vector<InputProblem>& problems) {
  for (const Collective& c : collectives) {
    const std::vector<int> members =
        parse_group_ranks(c.members.front()->row->fields[pc::kGroupRanks]);
    if (members.empty()) continue;
    std::set<int> present;
    for (const MatchedRow* m : c.members) present.insert(m->row->rank);
    std::vector<int> absent;
    for (const int r : members) {
      if (present.count(r) == 0) absent.push_back(r);
    }
    for (const int r : absent) {
      problems.push_back({r, c.id,
                          "the collective is missing on this member rank; matched over the " +
                              std::to_string(present.size()) + " ranks that have it",
                          false});
    }
  }
}

}  // namespace

CollectiveReport build_collective_report(std::vector<RankCollectives> ranks,
                                         const ReportOptions& options) {
  CollectiveReport report;
  std::sort(ranks.begin(), ranks.end(),
            [](const RankCollectives& a, const RankCollectives& b) { return a.rank < b.rank; });
  std::set<int> present;
  for (const RankCollectives& r : ranks) {
    present.insert(r.rank);
    // The trace's own word on who it is (the report goes by the file's rank).
    if (r.own_world_size && *r.own_world_size != options.world_size) {
      report.problems.push_back({r.rank,
                                 {},
                                 "the trace says world size " + std::to_string(*r.own_world_size) +
                                     ", the run has " + std::to_string(options.world_size) +
                                     " ranks",
                                 false});
    }
    if (r.own_rank && *r.own_rank != r.rank) {
      report.problems.push_back({r.rank,
                                 {},
                                 "the file is taken as rank " + std::to_string(r.rank) +
                                     " but the trace says rank " + std::to_string(*r.own_rank),
                                 false});
    }
  }
  for (int r = 0; r < options.world_size; ++r) {
    if (present.count(r) == 0) {
      report.problems.push_back({r, {}, "no trace for this rank; left out of every table", true});
    }
  }
  report.gpus_per_node = options.gpus_per_node;
  if (!report.gpus_per_node && !ranks.empty()) report.gpus_per_node = ranks.front().device_count;

  // Group naming is decided over all ranks at once.
  bool by_stream_order = true;
  std::size_t total_rows = 0;
  for (const RankCollectives& r : ranks) {
    by_stream_order = by_stream_order && pc::lacks_group_metadata(r.rows);
    total_rows += r.rows.size();
    if (r.rows.empty()) {
      report.problems.push_back({r.rank, {}, "the trace has no collective kernel", false});
    }
  }
  report.matched_by_stream_order = by_stream_order;
  std::vector<pc::CollectiveRow> rows;
  rows.reserve(total_rows);
  for (RankCollectives& r : ranks) {
    for (pc::CollectiveRow& row : r.rows) rows.push_back(std::move(row));
  }
  if (rows.empty()) return report;
  pc::name_groups(rows, by_stream_order);

  const std::vector<MatchedRow> matched = match_collectives(rows, by_stream_order);
  const std::vector<Collective> collectives = collectives_in_order(matched);
  note_partial_collectives(collectives, report.problems);
  const std::optional<int> gpn = report.gpus_per_node;

  Table implicit = implicit_sync_table(collectives, by_stream_order, report.problems);
  std::optional<Table> all2allv = all2allv_table(collectives, report.problems);

  // TraceLens's writing order: summaries, then the detailed tables, then stragglers.
  if (auto summary = implicit_sync_summary(implicit)) {
    add_file(report, "nccl_summary_implicit_sync.csv", std::move(*summary), gpn);
  }
  pc::ExtraColumns node_columns;
  if (gpn) {
    node_columns.names = {"node_id", "node_span"};
    node_columns.cells = [g = *gpn](const pc::CollectiveRow& row) {
      return std::vector<prepare::CsvValue>{
          prepare::CsvValue::integer(row.rank / g),
          prepare::CsvValue::text(node_span(row.fields[pc::kGroupRanks], g))};
    };
  }
  if (auto text = pc::summary_csv(rows, node_columns)) {
    report.files.push_back({"nccl_summary_long.csv", std::move(*text)});
  }
  if (all2allv) {
    if (auto summary = all2allv_summary(*all2allv)) {
      add_file(report, "nccl_summary_all2allv.csv", std::move(*summary), gpn);
    }
  }
  Table long_rows;
  long_rows.rows = long_table(matched, long_rows.order);
  add_file(report, "nccl_long.csv", std::move(long_rows), gpn);
  std::optional<Table> stragglers = straggler_summary(implicit, matched);
  if (implicit.rows.row_count() > 0)
    add_file(report, "nccl_implicit_sync.csv", std::move(implicit), gpn);
  if (all2allv) add_file(report, "nccl_all2allv.csv", std::move(*all2allv), gpn);
  if (stragglers) add_file(report, "straggler_summary.csv", std::move(*stragglers), gpn);
  return report;
}

}  // namespace loupe::core::multirank
