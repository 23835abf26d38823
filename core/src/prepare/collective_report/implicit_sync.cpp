// nccl_implicit_sync, its summary and the straggler summary (docs/multirank.md).
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "collective_tables.hpp"
#include "group_agg.hpp"
#include "loupe/core/prepare/coll/key_columns.hpp"
#include "loupe/core/prepare/pandas_numerics.hpp"
#include "node_span.hpp"

namespace loupe::core::multirank {

namespace pc = loupe::core::prepare::coll;

namespace {

bool is_implicit_sync(CollectiveType type) { return type != CollectiveType::kAllToAllV; }

// The metadata a collective's members must agree on, as the table holds them.
std::vector<std::pair<std::string, Json>> metadata(const pc::CollectiveRow& row) {
  std::vector<std::pair<std::string, Json>> fields;
  for (const pc::Field f : {pc::kGroupName, pc::kGroupRanks, pc::kCollectiveName, pc::kGroupSize,
                            pc::kDtype, pc::kInNelems, pc::kOutNelems}) {
    fields.emplace_back(std::string(pc::kFieldNames[f]), row.fields[f]);
  }
  fields.emplace_back("In msg size (MB)", in_mb_value(row));
  fields.emplace_back("Out msg size (MB)", out_mb_value(row));
  return fields;
}

}  // namespace

std::string mismatched_metadata(const Collective& c) {
  // The message sizes follow from dtype and element counts, so the raw fields decide.
  return mismatched_field(c, {pc::kGroupName, pc::kGroupRanks, pc::kCollectiveName, pc::kGroupSize,
                              pc::kDtype, pc::kInNelems, pc::kOutNelems});
}

double bus_factor(CollectiveType type, const Json& group_size) {
  if (!group_size.is_number()) return kNaN;
  const double n = group_size.as_double();
  switch (type) {
    case CollectiveType::kAllReduce:
      return 2.0 * (n - 1.0) / n;
    case CollectiveType::kReduceScatter:
    case CollectiveType::kAllGather:
    case CollectiveType::kAllToAll:
      return (n - 1.0) / n;
    case CollectiveType::kAllToAllV:
      break;
  }
  return kNaN;
}

std::optional<CollectiveType> collective_type(const Json& collective_name) {
  if (!collective_name.is_string()) return std::nullopt;
  const std::string& n = collective_name.as_string();
  if (n == "allreduce" || n == "allreduce_coalesced") return CollectiveType::kAllReduce;
  if (n == "reducescatter" || n == "_reduce_scatter_base" ||
      n == "reduce_scatter_tensor_coalesced") {
    return CollectiveType::kReduceScatter;
  }
  if (n == "allgather" || n == "all_gather" || n == "_allgather_base" ||
      n == "all_gather_into_tensor_coalesced" || n == "allgather_into_tensor_coalesced") {
    return CollectiveType::kAllGather;
  }
  if (n == "all_to_all") return CollectiveType::kAllToAll;
  if (n == "all_to_allv") return CollectiveType::kAllToAllV;
  return std::nullopt;
}

Table implicit_sync_table(const std::vector<Collective>& collectives, bool by_stream_order,
                          std::vector<InputProblem>& problems) {
  Table table;
  for (const Collective& c : collectives) {
    const pc::CollectiveRow& first = *c.members.front()->row;
    const Json& name = first.fields[pc::kCollectiveName];
    const auto type = collective_type(name);
    // Without group metadata, collectives of unknown kind are kept too.
    const bool keep = type ? is_implicit_sync(*type) : by_stream_order;
    if (!keep) continue;
    if (!by_stream_order) {
      if (const std::string field = mismatched_metadata(c); !field.empty()) {
        problems.push_back(mismatch_problem(c, field));
        continue;
      }
    }
    DictRows& t = table.rows;
    t.add_row();
    t.set("collective_id", Json(c.id));
    for (auto& [field, value] : metadata(first)) t.set(field, value);
    Json latest_start = ts_value(*c.members.front()->row);
    Json latency = dur_value(*c.members.front()->row);
    for (const MatchedRow* m : c.members) {
      t.set(rank_column(m->row->rank, "ts"), ts_value(*m->row));
      t.set(rank_column(m->row->rank, "dur"), dur_value(*m->row));
      if (py_less(latest_start, ts_value(*m->row))) latest_start = ts_value(*m->row);
      if (py_less(dur_value(*m->row), latency)) latency = dur_value(*m->row);
    }
    t.set("comm_latency", latency);
    Json max_wait;
    int max_wait_rank = 0;
    Json wait_sum(0);
    Json earliest_end;
    Json latest_end;
    for (const MatchedRow* m : c.members) {
      const Json wait = py_sub(latest_start, ts_value(*m->row));
      t.set(rank_column(m->row->rank, "wait_time"), wait);
      // max((wait, rank)): ties go to the higher rank.
      if (max_wait.is_null() || !py_less(wait, max_wait)) {
        max_wait = wait;
        max_wait_rank = m->row->rank;
      }
      wait_sum = py_add(wait_sum, wait);
      const Json end = py_add(ts_value(*m->row), dur_value(*m->row));
      if (earliest_end.is_null() || py_less(end, earliest_end)) earliest_end = end;
      if (latest_end.is_null() || py_less(latest_end, end)) latest_end = end;
    }
    t.set("skew in start time", max_wait);
    t.set("earliest arrival rank", Json(max_wait_rank));
    t.set("avg_wait_time", Json(wait_sum.as_double() / static_cast<double>(c.members.size())));
    t.set("skew in end time", py_sub(latest_end, earliest_end));
    if (type) {
      const Json& full = *type == CollectiveType::kAllGather
                             ? t.at(t.row_count() - 1, "Out msg size (MB)")
                             : t.at(t.row_count() - 1, "In msg size (MB)");
      const double full_mb = pc::is_missing(full) ? kNaN : full.as_double();
      const double algo =
          latency.as_double() > 0 ? (full_mb / 1024.0) / (latency.as_double() / 1e6) : kNaN;
      t.set("Full msg size (MB)", Json(full_mb));
      t.set("algo bw (GB/s)", Json(algo));
      t.set("bus bw (GB/s)", Json(algo * bus_factor(*type, first.fields[pc::kGroupSize])));
    } else {
      t.set("Full msg size (MB)", Json(kNaN));
      t.set("algo bw (GB/s)", Json(kNaN));
      t.set("bus bw (GB/s)", Json(kNaN));
    }
  }
  table.order = {"collective_id",       "Process Group Name",
                 "Process Group Ranks", "Collective name",
                 "Group size",          "dtype",
                 "In msg nelems",       "Out msg nelems",
                 "In msg size (MB)",    "Out msg size (MB)",
                 "Full msg size (MB)",  "comm_latency",
                 "skew in start time",  "earliest arrival rank",
                 "avg_wait_time",       "skew in end time",
                 "algo bw (GB/s)",      "bus bw (GB/s)"};
  for (const std::string& column : table.rows.columns()) {
    if (column.rfind("rank_", 0) == 0) table.order.push_back(column);
  }
  return table;
}

std::optional<Table> implicit_sync_summary(const Table& detailed) {
  const DictRows& d = detailed.rows;
  if (d.row_count() == 0) return std::nullopt;
  // The grouping columns with missing values filled by "Unknown".
  const std::vector<std::string> keys = {"Collective name", "dtype", "In msg nelems"};
  DictRows keyed;
  for (std::size_t r = 0; r < d.row_count(); ++r) {
    keyed.add_row();
    for (const std::string& key : keys) {
      const Json& value = d.at(r, key);
      keyed.set(key, pc::is_missing(value) ? Json("Unknown") : value);
    }
  }
  std::vector<std::size_t> all(d.row_count());
  for (std::size_t r = 0; r < all.size(); ++r) all[r] = r;
  const auto groups = group_by(keyed, keys, all);

  const std::vector<std::string> metrics_names = {"mean", "median", "min", "max"};
  std::vector<std::string> metric_columns = {"comm_latency", "skew in start time",
                                             "skew in end time"};
  for (const char* bw : {"algo bw (GB/s)", "bus bw (GB/s)"}) {
    const auto column = d.column(bw);
    if (!std::all_of(column.begin(), column.end(), pc::is_missing)) metric_columns.push_back(bw);
  }
  const std::vector<std::string> metadata_fields = {"Process Group Name", "Group size",
                                                    "Full msg size (MB)"};
  Table summary;
  std::vector<double> totals;
  for (const auto& group : groups) {
    DictRows& s = summary.rows;
    s.add_row();
    for (const std::string& key : keys) s.set(key, keyed.at(group.front(), key));
    for (const std::string& field : metadata_fields) {
      s.set(field, aggregate(d, field, group, Agg::kFirst));
    }
    for (const std::string& metric : metric_columns) {
      for (const std::string& agg : metrics_names) {
        s.set(metric + "_" + agg, aggregate(d, metric, group, agg_from_name(agg)));
      }
    }
    s.set("count", aggregate(d, "comm_latency", group, Agg::kSize));
    const Json total = aggregate(d, "comm_latency", group, Agg::kSeriesSumMs);
    s.set("Total comm latency (ms)", total);
    totals.push_back(total.as_double());
  }
  summary.order = summary.rows.columns();
  summary.row_order = prepare::pandas::sort_values_order(totals, /*ascending=*/false);
  return summary;
}

namespace {

// np.round(x, 1) as pandas / numpy scalars round: rint(x * 10) / 10.
double numpy_round1(double x) { return std::nearbyint(x * 10.0) / 10.0; }

}  // namespace

std::optional<Table> straggler_summary(const Table& detailed, const std::vector<MatchedRow>& rows) {
  const DictRows& d = detailed.rows;
  if (d.row_count() == 0) return std::nullopt;
  std::vector<std::string> wait_columns;
  std::vector<int> ranks;
  for (const std::string& column : d.columns()) {
    if (column.rfind("rank_", 0) == 0 && column.size() > 15 &&
        column.compare(column.size() - 10, 10, "_wait_time") == 0) {
      wait_columns.push_back(column);
      ranks.push_back(std::stoi(column.substr(5, column.size() - 15)));
    }
  }
  if (wait_columns.empty()) return std::nullopt;
  // Per collective, the wait column holding the smallest wait (first in column order on ties).
  std::vector<std::string> last_arrival(d.row_count());
  for (std::size_t r = 0; r < d.row_count(); ++r) {
    double best = std::numeric_limits<double>::infinity();
    for (const std::string& column : wait_columns) {
      const Json& wait = d.at(r, column);
      if (pc::is_missing(wait)) continue;
      if (last_arrival[r].empty() || wait.as_double() < best) {
        best = wait.as_double();
        last_arrival[r] = column;
      }
    }
  }
  // Kernel time per rank over every collective kernel (groupby("rank").dur.sum()).
  std::map<int, std::vector<double>> durations;
  bool dur_is_int = true;
  for (const MatchedRow& m : rows) {
    durations[m.row->rank].push_back(m.row->dur);
    dur_is_int = dur_is_int && m.row->dur_is_int;
  }
  std::vector<int> sorted_ranks = ranks;
  std::sort(sorted_ranks.begin(), sorted_ranks.end());
  const auto n = static_cast<double>(d.row_count());
  Table table;
  std::vector<double> total_waits;
  for (const int rank : sorted_ranks) {
    const std::string column = rank_column(rank, "wait_time");
    std::vector<double> waits;
    std::size_t present = 0;
    for (std::size_t r = 0; r < d.row_count(); ++r) {
      const Json& wait = d.at(r, column);
      const bool missing = pc::is_missing(wait);
      waits.push_back(missing ? 0.0 : wait.as_double());
      present += missing ? 0 : 1;
    }
    const double total = prepare::pandas::series_sum(waits, false).value;
    const double mean = present == 0 ? kNaN : total / static_cast<double>(present);
    std::int64_t times_last = 0;
    std::int64_t times_first = 0;
    for (std::size_t r = 0; r < d.row_count(); ++r) {
      times_last += last_arrival[r] == column ? 1 : 0;
      const Json& earliest = d.at(r, "earliest arrival rank");
      times_first += earliest.is_int() && earliest.as_int() == rank ? 1 : 0;
    }
    DictRows& t = table.rows;
    t.add_row();
    t.set("rank", Json(rank));
    t.set("total_wait_time_us", Json(numpy_round1(total)));
    t.set("mean_wait_time_us", Json(numpy_round1(mean)));
    t.set("times_arrived_last", Json(times_last));
    t.set("times_arrived_first", Json(times_first));
    t.set("pct_arrived_last", Json(numpy_round1(100.0 * static_cast<double>(times_last) / n)));
    t.set("num_collectives", Json(static_cast<std::int64_t>(d.row_count())));
    const auto it = durations.find(rank);
    if (it != durations.end()) {
      const prepare::PandasNumber sum = prepare::pandas::group_sum(it->second, dur_is_int);
      t.set("total_nccl_dur_us", sum.is_int ? Json(static_cast<std::int64_t>(sum.value))
                                            : Json(numpy_round1(sum.value)));
    } else {
      t.set("total_nccl_dur_us", Json(kNaN));
    }
    total_waits.push_back(numpy_round1(total));
  }
  table.order = table.rows.columns();
  table.row_order = prepare::pandas::sort_values_order(total_waits, /*ascending=*/true);
  return table;
}

}  // namespace loupe::core::multirank
