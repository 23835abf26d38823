// §3.5 ops_unique_args.csv: launchers grouped by the str() of their identifying columns (groups
// in first-appearance order), aggregated with pandas' groupby kernels, sorted by
// (direct-time sum desc, ex_UID asc), with kernel summaries and percentage columns.
#include <algorithm>
#include <unordered_map>

#include "launcher_rows.hpp"
#include "loupe/core/prepare/pandas_csv.hpp"
#include "op_group_key.hpp"

namespace loupe::core::prepare::ops {

namespace {

constexpr const char* kStatSuffixes[] = {"mean", "median", "std", "min", "max", "sum"};

OpGroupKey grouping_key(const LauncherRow& row, bool with_num_kernels) {
  OpGroupKey key = op_group_key(row);
  if (with_num_kernels) key.num_kernels = row.num_kernels;
  return key;
}

// mean, median, std, min, max, sum of one group of a numeric column.
std::vector<CsvValue> stat_cells(const NumericColumn& column, const std::vector<std::size_t>& rows,
                                 PandasNumber& sum) {
  std::vector<double> values;
  values.reserve(rows.size());
  for (const std::size_t r : rows) values.push_back(column.values[r]);
  sum = pandas::group_sum(values, column.is_int);
  return {CsvValue::real(pandas::group_mean(values)),
          CsvValue::real(pandas::group_median(values)),
          CsvValue::real(pandas::group_std(values)),
          CsvValue::number(pandas::group_min(values, column.is_int)),
          CsvValue::number(pandas::group_max(values, column.is_int)),
          CsvValue::number(sum)};
}

struct OutputRow {
  std::vector<CsvValue> cells;  // everything before the percentage columns
  PandasNumber direct_sum;
  trace::Uid ex_uid = trace::kNoUid;
};

OutputRow aggregate(const LauncherTable& table, const std::vector<std::size_t>& rows,
                    bool with_num_kernels) {
  const LauncherRow& first = table.rows[rows.front()];
  OutputRow out;
  out.ex_uid = first.uid;
  auto& cells = out.cells;
  for (const std::string_view text : {first.name, std::string_view(first.category),
                                      first.process_name, first.process_label, first.thread_name}) {
    cells.push_back(CsvValue::text(std::string(text)));
  }
  for (const auto& arg : first.args)
    cells.push_back(arg ? CsvValue::text(*arg) : CsvValue::empty());
  if (with_num_kernels) cells.push_back(CsvValue::integer(first.num_kernels));
  cells.push_back(CsvValue::integer(static_cast<std::int64_t>(rows.size())));

  PandasNumber subtree_sum;
  const auto direct = stat_cells(table.direct, rows, out.direct_sum);
  const auto subtree = stat_cells(table.subtree, rows, subtree_sum);
  for (std::size_t i = 0; i < direct.size(); ++i) {  // direct / subtree pairs per statistic
    cells.push_back(direct[i]);
    cells.push_back(subtree[i]);
  }
  cells.push_back(CsvValue::integer(first.uid));

  std::vector<std::span<const KernelDetail>> details;
  details.reserve(rows.size());
  for (const std::size_t r : rows) details.emplace_back(table.rows[r].kernel_details);
  const auto stats = summarize_kernel_details(details);
  cells.push_back(CsvValue::text(kernel_details_summary_repr(stats)));
  const auto trunc = trunc_kernel_details_repr(stats);
  cells.push_back(trunc ? CsvValue::text(*trunc) : CsvValue::empty());
  return out;
}

std::vector<std::string> header(bool with_num_kernels) {
  std::vector<std::string> columns = {"name", "op category", "process_name", "process_label",
                                      "thread_name"};
  for (const char* arg : kArgColumns) columns.emplace_back(arg);
  if (with_num_kernels) columns.emplace_back("num_kernels");
  columns.emplace_back("operation_count");
  for (const char* suffix : kStatSuffixes) {
    for (const char* prefix : {"total_direct_kernel_time_", "total_subtree_kernel_time_"}) {
      std::string column(prefix);
      column.append(suffix);
      columns.push_back(std::move(column));
    }
  }
  for (const char* tail : {"ex_UID", "kernel_details_summary", "trunc_kernel_details",
                           "Percentage (%)", "Cumulative Percentage (%)"}) {
    columns.emplace_back(tail);
  }
  return columns;
}

}  // namespace

std::string ops_unique_args_csv(const LauncherTable& table, bool group_by_num_kernels) {
  // groupby(..., sort=False): groups in order of first appearance.
  std::unordered_map<OpGroupKey, std::size_t, OpGroupKeyHash> group_of;
  std::vector<std::vector<std::size_t>> groups;
  for (std::size_t i = 0; i < table.rows.size(); ++i) {
    const auto [it, inserted] =
        group_of.try_emplace(grouping_key(table.rows[i], group_by_num_kernels), groups.size());
    if (inserted) groups.emplace_back();
    groups[it->second].push_back(i);
  }
  std::vector<OutputRow> rows;
  rows.reserve(groups.size());
  for (const auto& members : groups)
    rows.push_back(aggregate(table, members, group_by_num_kernels));

  // sort_values([sum, ex_UID], ascending=[False, True]): a stable lexicographic sort.
  std::stable_sort(rows.begin(), rows.end(), [](const OutputRow& a, const OutputRow& b) {
    if (a.direct_sum.value != b.direct_sum.value) return a.direct_sum.value > b.direct_sum.value;
    return a.ex_uid < b.ex_uid;
  });

  std::vector<double> sums;
  sums.reserve(rows.size());
  for (const OutputRow& row : rows) sums.push_back(row.direct_sum.value);
  const double total = pandas::series_sum(sums, table.direct.is_int).value;
  std::vector<double> percent;
  percent.reserve(rows.size());
  for (const double s : sums) percent.push_back(s / total * 100);
  const auto cumulative = pandas::series_cumsum(percent);

  PandasCsvWriter csv(header(group_by_num_kernels));
  for (std::size_t i = 0; i < rows.size(); ++i) {
    auto cells = std::move(rows[i].cells);
    cells.push_back(CsvValue::real(percent[i]));
    cells.push_back(CsvValue::real(cumulative[i]));
    csv.add_row(cells);
  }
  return csv.text();
}

}  // namespace loupe::core::prepare::ops
