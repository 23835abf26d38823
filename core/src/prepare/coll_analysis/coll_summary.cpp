#include "loupe/core/prepare/coll/coll_summary.hpp"

#include <algorithm>
#include <array>
#include <numeric>
#include <span>

#include "loupe/core/prepare/coll/key_columns.hpp"
#include "loupe/core/prepare/pandas_csv.hpp"
#include "loupe/core/prepare/pandas_numerics.hpp"

namespace loupe::core::prepare::coll {

namespace {

using Dtypes = std::array<ColumnDtype, kFieldCount>;

// Column dtypes as pandas infers them over every row (also the ones the grouping drops).
Dtypes infer_dtypes(const std::vector<CollectiveRow>& rows) {
  Dtypes dtypes{};
  std::vector<Json> column(rows.size());
  for (std::size_t f = 0; f < kFieldCount; ++f) {
    for (std::size_t r = 0; r < rows.size(); ++r) column[r] = rows[r].fields[f];
    dtypes[f] = infer_dtype(column);
  }
  return dtypes;
}

bool has_all_keys(const CollectiveRow& row) {
  return std::none_of(row.fields.begin(), row.fields.end(), is_missing);
}

int compare_rows(const CollectiveRow& a, const CollectiveRow& b, const Dtypes& dtypes) {
  if (a.rank != b.rank) return a.rank < b.rank ? -1 : 1;
  for (std::size_t f = 0; f < kFieldCount; ++f) {
    if (const int c = compare_keys(a.fields[f], b.fields[f], dtypes[f]); c != 0) return c;
  }
  return 0;
}

// Kept row indices in groupby order (keys sorted, rows of a group in trace order), cut into
// groups.
std::vector<std::vector<std::size_t>> group_rows(const std::vector<CollectiveRow>& rows,
                                                 const Dtypes& dtypes) {
  std::vector<std::size_t> kept;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (has_all_keys(rows[r])) kept.push_back(r);
  }
  std::stable_sort(kept.begin(), kept.end(), [&](std::size_t a, std::size_t b) {
    return compare_rows(rows[a], rows[b], dtypes) < 0;
  });
  std::vector<std::vector<std::size_t>> groups;
  for (const std::size_t r : kept) {
    if (groups.empty() || compare_rows(rows[groups.back().front()], rows[r], dtypes) != 0) {
      groups.emplace_back();
    }
    groups.back().push_back(r);
  }
  return groups;
}

// GroupBy.first: the first present value of the group.
CsvValue first_present(const std::vector<CollectiveRow>& rows,
                       const std::vector<std::size_t>& group,
                       std::optional<double> CollectiveRow::*member) {
  for (const std::size_t r : group) {
    if (const auto& value = rows[r].*member; value) return CsvValue::real(*value);
  }
  return CsvValue::empty();
}

struct GroupStats {
  PandasNumber sum, min, max;
  double mean = 0.0, std = 0.0;
};

GroupStats duration_stats(const std::vector<CollectiveRow>& rows,
                          const std::vector<std::size_t>& group, bool is_int) {
  std::vector<double> durs;
  durs.reserve(group.size());
  for (const std::size_t r : group) durs.push_back(rows[r].dur);
  const std::span<const double> values(durs);
  return {pandas::group_sum(values, is_int), pandas::group_min(values, is_int),
          pandas::group_max(values, is_int), pandas::group_mean(values), pandas::group_std(values)};
}

std::vector<std::string> header(const ExtraColumns& extra) {
  std::vector<std::string> columns{"rank"};
  for (const std::string_view name : kFieldNames) columns.emplace_back(name);
  for (const char* name : {"In msg size (MB)_first", "Out msg size (MB)_first", "dur_sum",
                           "dur_mean", "dur_std", "dur_min", "dur_max", "operation_count"}) {
    columns.emplace_back(name);
  }
  columns.insert(columns.end(), extra.names.begin(), extra.names.end());
  return columns;
}

}  // namespace

std::optional<std::string> summary_csv(const std::vector<CollectiveRow>& rows,
                                       const ExtraColumns& extra) {
  const Dtypes dtypes = infer_dtypes(rows);
  const auto groups = group_rows(rows, dtypes);
  if (groups.empty()) return std::nullopt;
  const bool dur_is_int = std::all_of(rows.begin(), rows.end(),
                                      [](const CollectiveRow& row) { return row.dur_is_int; });

  std::vector<GroupStats> stats;
  std::vector<double> sums;
  for (const auto& group : groups) {
    stats.push_back(duration_stats(rows, group, dur_is_int));
    sums.push_back(stats.back().sum.value);
  }

  PandasCsvWriter writer(header(extra));
  for (const std::size_t g : pandas::sort_values_order(sums, /*ascending=*/false)) {
    const auto& group = groups[g];
    const CollectiveRow& first = rows[group.front()];
    std::vector<CsvValue> cells{CsvValue::integer(first.rank)};
    for (std::size_t f = 0; f < kFieldCount; ++f) {
      cells.push_back(key_cell(first.fields[f], dtypes[f]));
    }
    cells.push_back(first_present(rows, group, &CollectiveRow::in_msg_mb));
    cells.push_back(first_present(rows, group, &CollectiveRow::out_msg_mb));
    const GroupStats& s = stats[g];
    cells.push_back(CsvValue::number(s.sum));
    cells.push_back(CsvValue::real(s.mean));
    cells.push_back(CsvValue::real(s.std));
    cells.push_back(CsvValue::number(s.min));
    cells.push_back(CsvValue::number(s.max));
    cells.push_back(CsvValue::integer(static_cast<std::int64_t>(group.size())));
    if (extra.cells) {
      for (CsvValue& cell : extra.cells(first)) cells.push_back(std::move(cell));
    }
    writer.add_row(cells);
  }
  return writer.text();
}

}  // namespace loupe::core::prepare::coll
