#include "trace2_summary.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "category_split.hpp"
#include "loupe/core/prepare/pandas_numerics.hpp"

namespace loupe::core::prepare::analysis_dir {
namespace {

struct Group {
  std::vector<double> counts;
  std::vector<double> times_us;
};

Json number_json(const PandasNumber& n) {
  return n.is_int ? Json(static_cast<long long>(n.value)) : Json(pandas_to_json_float(n.value));
}

}  // namespace

double pandas_to_json_float(double value) {
  if (!std::isfinite(value)) return value;
  // Rounded to 10 decimals, trailing zeros dropped, then parsed back by json.loads.
  char text[512];
  std::snprintf(text, sizeof text, "%.10f", value);
  return std::strtod(text, nullptr);
}

Json trace2_ops_summary_by_category(const CsvTable& trace2_unified) {
  const auto category_col = trace2_unified.find_column("op category");
  const auto count_col = trace2_unified.find_column("operation_count");
  const auto time_col = trace2_unified.find_column("Kernel Time (µs)_sum");
  if (!category_col || !count_col || !time_col) return Json::array();

  std::map<std::string, Group> groups;  // groupby sorts its keys
  for (std::size_t r = 0; r < trace2_unified.row_count(); ++r) {
    Group& g = groups[category_file_key(trace2_unified.cell(r, *category_col).text)];
    const CsvCellView count = trace2_unified.cell(r, *count_col);
    if (count.kind == CsvCell::Kind::Number) g.counts.push_back(count.number);
    const CsvCellView time = trace2_unified.cell(r, *time_col);
    if (time.kind == CsvCell::Kind::Number && !std::isnan(time.number)) {
      g.times_us.push_back(time.number);
    }
  }

  std::vector<std::string> keys;
  std::vector<PandasNumber> counts;
  std::vector<double> times_ms;
  for (const auto& [key, g] : groups) {
    keys.push_back(key);
    counts.push_back(pandas::group_sum(g.counts, true));
    times_ms.push_back(pandas::group_sum(g.times_us, false).value * 0.001);
  }
  const double total = pandas::series_sum(times_ms, false).value;
  std::vector<double> percent(times_ms.size(), 0.0);
  if (total > 0) {
    for (std::size_t i = 0; i < times_ms.size(); ++i) percent[i] = times_ms[i] / total * 100;
  }
  const std::vector<std::size_t> order = pandas::sort_values_order(times_ms, false);
  std::vector<double> sorted_percent;
  sorted_percent.reserve(order.size());
  for (const std::size_t i : order) sorted_percent.push_back(percent[i]);
  const std::vector<double> cumulative = pandas::series_cumsum(sorted_percent);

  Json records = Json::array();
  for (std::size_t k = 0; k < order.size(); ++k) {
    const std::size_t i = order[k];
    Json record = Json::object();
    record["op category"] = Json(keys[i]);
    record["Count"] = number_json(counts[i]);
    record["total_direct_kernel_time_ms"] = Json(pandas_to_json_float(times_ms[i]));
    // With no kernel time the column is the int 0 (and so is its cumsum).
    record["Percentage (%)"] = total > 0 ? Json(pandas_to_json_float(sorted_percent[k])) : Json(0);
    record["Cumulative Percentage (%)"] =
        total > 0 ? Json(pandas_to_json_float(cumulative[k])) : Json(0);
    records.push_back(std::move(record));
  }
  return records;
}

}  // namespace loupe::core::prepare::analysis_dir
