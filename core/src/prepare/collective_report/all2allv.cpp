// nccl_all2allv and its summary (docs/multirank.md): all-to-all-v moves a different amount on
// every rank, so it is described by wall time, throughput and size imbalance.
#include <algorithm>
#include <limits>

#include "collective_tables.hpp"
#include "group_agg.hpp"
#include "loupe/core/prepare/coll/key_columns.hpp"
#include "loupe/core/prepare/pandas_numerics.hpp"

namespace loupe::core::multirank {

namespace pc = loupe::core::prepare::coll;

namespace {

double number_or_nan(const Json& value) { return value.is_number() ? value.as_double() : kNaN; }

}  // namespace

std::optional<Table> all2allv_table(const std::vector<Collective>& collectives,
                                    std::vector<InputProblem>& problems) {
  Table table;
  std::vector<double> data_sizes;
  for (const Collective& c : collectives) {
    const pc::CollectiveRow& first = *c.members.front()->row;
    if (collective_type(first.fields[pc::kCollectiveName]) != CollectiveType::kAllToAllV) continue;
    const std::string field =
        mismatched_field(c, {pc::kGroupName, pc::kGroupRanks, pc::kCollectiveName, pc::kGroupSize,
                             pc::kDtype, pc::kStream});
    if (!field.empty()) {
      problems.push_back(mismatch_problem(c, field));
      continue;
    }
    DictRows& t = table.rows;
    t.add_row();
    t.set("collective_id", Json(c.id));
    for (const pc::Field f : {pc::kGroupName, pc::kGroupRanks, pc::kCollectiveName, pc::kGroupSize,
                              pc::kDtype, pc::kStream}) {
      t.set(pc::kFieldNames[f], first.fields[f]);
    }
    Json earliest_start, latest_start, earliest_end, latest_end, max_dur, min_dur;
    Json dur_sum(0);
    Json size_sum(0);
    Json nelems_sum(0);
    std::vector<double> sizes;
    std::vector<double> throughputs;
    for (const MatchedRow* m : c.members) {
      const pc::CollectiveRow& row = *m->row;
      const int r = row.rank;
      const Json ts = ts_value(row);
      const Json dur = dur_value(row);
      const Json end = py_add(ts, dur);
      t.set(rank_column(r, "ts"), ts);
      t.set(rank_column(r, "dur"), dur);
      t.set(rank_column(r, "In msg nelems"), row.fields[pc::kInNelems]);
      t.set(rank_column(r, "Out msg nelems"), row.fields[pc::kOutNelems]);
      t.set(rank_column(r, "In msg size (MB)"), in_mb_value(row));
      t.set(rank_column(r, "Out msg size (MB)"), out_mb_value(row));
      t.set(rank_column(r, "In split size"), row.fields[pc::kInSplit]);
      t.set(rank_column(r, "Out split size"), row.fields[pc::kOutSplit]);
      if (earliest_start.is_null() || py_less(ts, earliest_start)) earliest_start = ts;
      if (latest_start.is_null() || py_less(latest_start, ts)) latest_start = ts;
      if (earliest_end.is_null() || py_less(end, earliest_end)) earliest_end = end;
      if (latest_end.is_null() || py_less(latest_end, end)) latest_end = end;
      if (max_dur.is_null() || py_less(max_dur, dur)) max_dur = dur;
      if (min_dur.is_null() || py_less(dur, min_dur)) min_dur = dur;
      dur_sum = py_add(dur_sum, dur);
      const double size = row.in_msg_mb.value_or(kNaN);
      size_sum = Json(size_sum.as_double() + size);
      if (row.fields[pc::kInNelems].is_number()) {
        nelems_sum = py_add(nelems_sum, row.fields[pc::kInNelems]);
      } else {
        nelems_sum = Json(kNaN);
      }
      sizes.push_back(size);
      const double dur_us = dur.as_double();
      if (size > 0 && dur_us > 0) throughputs.push_back((size / 1024.0) / (dur_us / 1e6));
    }
    t.set("skew in start time", py_sub(latest_start, earliest_start));
    t.set("skew in end time", py_sub(latest_end, earliest_end));
    for (const MatchedRow* m : c.members) {
      const Json ts = ts_value(*m->row);
      const Json end = py_add(ts, dur_value(*m->row));
      t.set(rank_column(m->row->rank, "skew in start time"), py_sub(ts, earliest_start));
      t.set(rank_column(m->row->rank, "skew in end time"), py_sub(latest_end, end));
    }
    t.set("total data communicated (MB)", size_sum);
    t.set("total nelems communicated", nelems_sum);
    const Json wall = py_sub(latest_end, earliest_start);
    t.set("wall_time (us)", wall);
    t.set("max_rank_dur (us)", max_dur);
    t.set("min_rank_dur (us)", min_dur);
    const auto members = static_cast<double>(c.members.size());
    t.set("avg_rank_dur (us)", Json(dur_sum.as_double() / members));
    t.set("throughput (GB/s)",
          Json(wall.as_double() > 0 ? (size_sum.as_double() / 1024.0) / (wall.as_double() / 1e6)
                                    : kNaN));
    t.set("max_rank_throughput (GB/s)",
          Json(throughputs.empty() ? kNaN
                                   : *std::max_element(throughputs.begin(), throughputs.end())));
    t.set("min_rank_throughput (GB/s)",
          Json(throughputs.empty() ? kNaN
                                   : *std::min_element(throughputs.begin(), throughputs.end())));
    double size_total = 0.0;
    for (const double s : sizes) size_total += s;
    const double mean_size = size_total / members;
    t.set("size_imbalance",
          Json(mean_size > 0 ? *std::max_element(sizes.begin(), sizes.end()) / mean_size : kNaN));
    data_sizes.push_back(number_or_nan(size_sum));
  }
  if (table.rows.row_count() == 0) return std::nullopt;
  table.order = {"collective_id",
                 "Process Group Name",
                 "Process Group Ranks",
                 "Collective name",
                 "Group size",
                 "dtype",
                 "stream",
                 "total data communicated (MB)",
                 "total nelems communicated",
                 "wall_time (us)",
                 "max_rank_dur (us)",
                 "min_rank_dur (us)",
                 "avg_rank_dur (us)",
                 "throughput (GB/s)",
                 "max_rank_throughput (GB/s)",
                 "min_rank_throughput (GB/s)",
                 "size_imbalance",
                 "skew in start time",
                 "skew in end time"};
  for (const std::string& column : table.rows.columns()) {
    if (column.rfind("rank_", 0) == 0) table.order.push_back(column);
  }
  table.row_order = prepare::pandas::sort_values_order(data_sizes, /*ascending=*/false);
  return table;
}

std::optional<Table> all2allv_summary(const Table& detailed) {
  const DictRows& d = detailed.rows;
  const auto groups = group_by(d, {"Process Group Name", "dtype"}, detailed.row_order);
  if (groups.empty()) return std::nullopt;
  const std::vector<std::string> metrics = {"mean", "median", "min", "max"};
  Table summary;
  std::vector<double> totals;
  for (const auto& group : groups) {
    DictRows& s = summary.rows;
    s.add_row();
    s.set("Process Group Name", d.at(group.front(), "Process Group Name"));
    s.set("dtype", d.at(group.front(), "dtype"));
    for (const std::string& m : metrics) {
      s.set("total data communicated (MB)_" + m,
            aggregate(d, "total data communicated (MB)", group, agg_from_name(m)));
    }
    for (const std::string& m : metrics) {
      s.set("wall_time (us)_" + m, aggregate(d, "wall_time (us)", group, agg_from_name(m)));
    }
    const Json total = aggregate(d, "wall_time (us)", group, Agg::kSum);
    s.set("Total wall_time (us)", total);
    for (const std::string& m : metrics) {
      s.set("throughput (GB/s)_" + m, aggregate(d, "throughput (GB/s)", group, agg_from_name(m)));
    }
    for (const char* column :
         {"size_imbalance", "max_rank_dur (us)", "skew in start time", "skew in end time"}) {
      for (const char* m : {"mean", "max"}) {
        s.set(std::string(column) + "_" + m, aggregate(d, column, group, agg_from_name(m)));
      }
    }
    s.set("count", aggregate(d, "collective_id", group, Agg::kCount));
    for (const char* column : {"Process Group Ranks", "Collective name", "Group size"}) {
      s.set(column, aggregate(d, column, group, Agg::kFirst));
    }
    const double total_ms = total.as_double() / 1000.0;
    s.set("Total wall_time (ms)", Json(total_ms));
    totals.push_back(total_ms);
  }
  summary.order = summary.rows.columns();
  summary.row_order = prepare::pandas::sort_values_order(totals, /*ascending=*/false);
  return summary;
}

}  // namespace loupe::core::multirank
