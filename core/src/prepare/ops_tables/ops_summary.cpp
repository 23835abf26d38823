// §3.4 ops_summary.csv (launchers grouped by name) and ops_summary_by_category.csv (grouped by
// `op category`): pandas groupby with sorted keys, then sort_values on the direct-time sum
// (descending, numpy quicksort), ms columns, Percentage and running Cumulative Percentage.
#include <algorithm>
#include <set>
#include <string_view>
#include <unordered_map>

#include "launcher_rows.hpp"
#include "loupe/core/prepare/pandas_csv.hpp"
#include "loupe/core/prepare/py_repr.hpp"

namespace loupe::core::prepare::ops {

namespace {

// The texts are views of the launcher rows'.
struct Group {
  std::string_view key;
  std::vector<double> direct, subtree;
  std::set<std::string_view> categories;
};

// groupby(key) with sort=True: groups in key order (std::string's order), rows in row order.
template <typename KeyOf>
std::vector<Group> group_rows(const LauncherTable& table, KeyOf key_of) {
  std::vector<Group> groups;
  std::unordered_map<std::string_view, std::size_t> index;
  for (std::size_t i = 0; i < table.rows.size(); ++i) {
    const std::string_view key = key_of(table.rows[i]);
    const auto [it, inserted] = index.try_emplace(key, groups.size());
    if (inserted) groups.push_back(Group{key, {}, {}, {}});
    Group& g = groups[it->second];
    g.direct.push_back(table.direct.values[i]);
    g.subtree.push_back(table.subtree.values[i]);
    g.categories.insert(table.rows[i].category);
  }
  std::sort(groups.begin(), groups.end(),
            [](const Group& a, const Group& b) { return a.key < b.key; });
  return groups;
}

struct Summed {
  std::string_view key;
  const Group* group = nullptr;
  PandasNumber direct_sum, subtree_sum;
};

// Group sums, sorted by the direct sum descending as pandas' sort_values does.
std::vector<Summed> sorted_sums(const LauncherTable& table, const std::vector<Group>& groups) {
  std::vector<Summed> sums;
  std::vector<double> keys;
  for (const Group& group : groups) {
    const std::string_view key = group.key;
    sums.push_back({key, &group, pandas::group_sum(group.direct, table.direct.is_int),
                    pandas::group_sum(group.subtree, table.subtree.is_int)});
    keys.push_back(sums.back().direct_sum.value);
  }
  std::vector<Summed> sorted;
  for (const std::size_t i : pandas::sort_values_order(keys, false)) sorted.push_back(sums[i]);
  return sorted;
}

// direct_ms and its Percentage / Cumulative Percentage columns.
struct Shares {
  std::vector<double> ms, percent, cumulative;
};

Shares shares_of(const std::vector<Summed>& sums) {
  Shares s;
  for (const Summed& row : sums) s.ms.push_back(row.direct_sum.value / 1000);
  const double total_ms = pandas::series_sum(s.ms, false).value;
  for (const double ms : s.ms) s.percent.push_back(ms / total_ms * 100);
  s.cumulative = pandas::series_cumsum(s.percent);
  return s;
}

std::string list_repr(const std::set<std::string_view>& items) {
  std::string out = "[";
  for (const std::string_view item : items) {
    if (out.size() > 1) out += ", ";
    out += py_str_repr(item);
  }
  out += ']';
  return out;
}

}  // namespace

std::string ops_summary_csv(const LauncherTable& table) {
  const auto groups =
      group_rows(table, [](const LauncherRow& r) -> std::string_view { return r.name; });
  const auto sums = sorted_sums(table, groups);
  const Shares shares = shares_of(sums);
  PandasCsvWriter csv({"name", "total_direct_kernel_time_sum", "total_subtree_kernel_time_sum",
                       "total_direct_kernel_time_ms", "total_subtree_kernel_time_ms", "Count",
                       "Categories", "Percentage (%)", "Cumulative Percentage (%)"});
  for (std::size_t i = 0; i < sums.size(); ++i) {
    const Summed& row = sums[i];
    csv.add_row({CsvValue::text(std::string(row.key)), CsvValue::number(row.direct_sum),
                 CsvValue::number(row.subtree_sum), CsvValue::real(shares.ms[i]),
                 CsvValue::real(row.subtree_sum.value / 1000),
                 CsvValue::integer(static_cast<std::int64_t>(row.group->direct.size())),
                 CsvValue::text(list_repr(row.group->categories)),
                 CsvValue::real(shares.percent[i]), CsvValue::real(shares.cumulative[i])});
  }
  return csv.text();
}

std::string ops_summary_by_category_csv(const LauncherTable& table) {
  const auto groups =
      group_rows(table, [](const LauncherRow& r) -> std::string_view { return r.category; });
  const auto sums = sorted_sums(table, groups);
  const Shares shares = shares_of(sums);
  PandasCsvWriter csv({"op category", "Count", "total_direct_kernel_time_ms", "Percentage (%)",
                       "Cumulative Percentage (%)"});
  for (std::size_t i = 0; i < sums.size(); ++i) {
    csv.add_row({CsvValue::text(std::string(sums[i].key)),
                 CsvValue::integer(static_cast<std::int64_t>(sums[i].group->direct.size())),
                 CsvValue::real(shares.ms[i]), CsvValue::real(shares.percent[i]),
                 CsvValue::real(shares.cumulative[i])});
  }
  return csv.text();
}

}  // namespace loupe::core::prepare::ops
