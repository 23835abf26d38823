#include "sheet_summary.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <span>
#include <string>

#include "loupe/core/prepare/pandas_numerics.hpp"
#include "loupe/python_format.hpp"

namespace loupe::core::prepare::sheets {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr const char* kAggs[] = {"mean", "median", "std", "min", "max"};
constexpr const char* kArgColumns[] = {"Input Dims_first", "Input type_first",
                                       "Input Strides_first", "Concrete Inputs_first"};

// The `param: *` columns in order of first appearance over the rows (DataFrame from dicts).
std::vector<std::string> param_keys(const std::vector<SheetRow>& rows) {
  std::vector<std::string> keys;
  for (const SheetRow& row : rows) {
    for (const auto& [key, value] : row.model->result.params) {
      if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
    }
  }
  return keys;
}

// Whether pandas makes the `param: *` column a float64 one when it builds the DataFrame from the
// rows' dicts: every value present is a number (a bool is not) or None, and a row lacks the key,
// or a float is among them, or an int sits next to a None. Its ints then print as floats and its
// Nones as "nan" (a column of Nones alone stays object: "None").
std::vector<bool> float_param_columns(const std::vector<SheetRow>& rows,
                                      const std::vector<std::string>& keys) {
  std::vector<bool> out;
  out.reserve(keys.size());
  for (const auto& key : keys) {
    bool numbers = true, has_int = false, has_float = false, has_none = false, has_gap = false;
    for (const SheetRow& row : rows) {
      const perf::Params& params = row.model->result.params;
      const auto it =
          std::find_if(params.begin(), params.end(), [&](const auto& p) { return p.first == key; });
      if (it == params.end()) {
        has_gap = true;
      } else if (it->second.is_none()) {
        has_none = true;
      } else if (it->second.is_int()) {
        has_int = true;
      } else if (it->second.is_float()) {
        has_float = true;
      } else {
        numbers = false;
      }
    }
    out.push_back(numbers && (has_gap || has_float || (has_int && has_none)));
  }
  return out;
}

// astype(str) of each param cell; a row without the key holds NaN -> "nan", and so does None in
// a float64 column, whose ints print as floats ("128.0").
std::vector<std::string> param_strings(const SheetRow& row, const std::vector<std::string>& keys,
                                       const std::vector<bool>& float_columns) {
  std::vector<std::string> out;
  out.reserve(keys.size());
  const perf::Params& params = row.model->result.params;
  for (std::size_t k = 0; k < keys.size(); ++k) {
    const auto it = std::find_if(params.begin(), params.end(),
                                 [&](const auto& p) { return p.first == keys[k]; });
    const bool gap = it == params.end() || (float_columns[k] && it->second.is_none());
    if (gap) {
      out.emplace_back("nan");
    } else if (!float_columns[k]) {
      out.push_back(row.model->param_strs[static_cast<std::size_t>(it - params.begin())]);
    } else {
      const double value =
          it->second.is_int() ? static_cast<double>(it->second.as_int()) : it->second.as_float();
      out.push_back(py::float_repr(value));
    }
  }
  return out;
}

// agg_metrics = [mean, median, std, min, max] over the non-NaN values.
std::vector<Cell> float_aggs(const std::vector<double>& values) {
  std::vector<double> v;
  for (const double x : values) {
    if (!std::isnan(x)) v.push_back(x);
  }
  if (v.empty()) return std::vector<Cell>(5, Cell::real(kNaN));
  return {Cell::real(pandas::group_mean(v)), Cell::real(pandas::group_median(v)),
          Cell::real(pandas::group_std(v)), Cell::real(*std::min_element(v.begin(), v.end())),
          Cell::real(*std::max_element(v.begin(), v.end()))};
}

// groupby "first": the first non-NaN value.
double first_number(const std::vector<double>& values) {
  for (const double v : values) {
    if (!std::isnan(v)) return v;
  }
  return kNaN;
}

Cell first_text(std::span<const std::string* const> values) {
  for (const std::string* v : values) {
    if (v != nullptr) return Cell::text(*v);
  }
  return Cell::missing();
}

struct Layout {
  std::vector<std::string> params;
  bool roofline = false;
  bool kernel_time_int = true;
};

std::vector<std::string> header(const Layout& layout) {
  std::vector<std::string> h = {"name"};
  for (const auto& key : layout.params) h.push_back(std::string("param: ").append(key));
  h.emplace_back("num_kernels");
  for (const char* c : {"GFLOPS_first", "Data Moved (MB)_first", "FLOPS/Byte_first"}) {
    h.emplace_back(c);
  }
  for (const char* metric : {"TB/s_", "TFLOPS/s_"}) {
    for (const char* agg : kAggs) h.push_back(std::string(metric).append(agg));
  }
  for (const char* c :
       {"process_name_first", "process_label_first", "thread_name_first", "Compute Spec"}) {
    h.emplace_back(c);
  }
  if (layout.roofline) {
    h.emplace_back("Roofline Time (µs)_first");
    h.emplace_back("Roofline Bound_first");
    for (const char* agg : kAggs) h.push_back(std::string("Pct Roofline_").append(agg));
  }
  h.emplace_back("kernel_details__summarize_kernel_stats");
  h.emplace_back("trunc_kernel_details");
  for (const char* c : kArgColumns) h.emplace_back(c);
  for (const char* agg : kAggs) h.push_back(std::string("Kernel Time (µs)_").append(agg));
  h.emplace_back("Kernel Time (µs)_sum");
  h.emplace_back("name_count");
  h.emplace_back("UID_first");
  return h;
}

struct Group {
  std::string num_kernels;
  std::vector<std::string> params;
  std::vector<std::size_t> rows;
};

struct SummaryRow {
  std::vector<Cell> cells;
  double kernel_sum = 0;
  trace::Uid uid_first = 0;
};

SummaryRow summarize_group(const std::vector<SheetRow>& rows, const Group& g,
                           const Layout& layout) {
  std::vector<double> gflops, moved, fpb, tbs, tflops, roof_time, pct, kernel_times;
  std::vector<const std::string*> bounds;
  std::vector<std::span<const KernelDetail>> details;
  std::vector<const std::string*> args[4];
  for (const std::size_t r : g.rows) {
    const SheetRow& row = rows[r];
    const perf::Metrics& m = row.metrics;
    gflops.push_back(m.gflops);
    moved.push_back(m.data_moved_mb.value_or(kNaN));
    fpb.push_back(m.flops_per_byte);
    tbs.push_back(m.tb_per_s);
    tflops.push_back(m.tflops_per_s);
    roof_time.push_back(m.roofline_time_us.value_or(kNaN));
    bounds.push_back(m.roofline_time_us ? &m.roofline_bound : nullptr);
    pct.push_back(m.roofline_time_us ? m.pct_roofline : kNaN);
    kernel_times.push_back(row.kernel_time_us.value);
    details.emplace_back(row.kernel_details);
    for (std::size_t i = 0; i < 4; ++i) {
      args[i].push_back(row.args[i]);
    }
  }
  const SheetRow& first = rows[g.rows.front()];

  SummaryRow out;
  out.uid_first = first.uid;
  auto& c = out.cells;
  c.push_back(Cell::text(first.name));
  for (const auto& p : g.params) c.push_back(Cell::text(p));
  c.push_back(Cell::text(g.num_kernels));
  c.push_back(Cell::real(first_number(gflops)));
  c.push_back(Cell::real(first_number(moved)));
  c.push_back(Cell::real(first_number(fpb)));
  for (const auto& v : {tbs, tflops}) {
    const auto aggs = float_aggs(v);
    c.insert(c.end(), aggs.begin(), aggs.end());
  }
  c.push_back(Cell::text(first.process_name));
  c.push_back(Cell::text(first.process_label));
  c.push_back(Cell::text(first.thread_name));
  c.push_back(Cell::text(first.metrics.compute_spec));
  if (layout.roofline) {
    c.push_back(Cell::real(first_number(roof_time)));
    c.push_back(first_text(bounds));
    const auto aggs = float_aggs(pct);
    c.insert(c.end(), aggs.begin(), aggs.end());
  }
  const auto stats = summarize_kernel_details(details);
  c.push_back(Cell::text(kernel_details_summary_repr(stats)));
  const auto trunc = trunc_kernel_details_repr(stats);
  c.push_back(trunc ? Cell::text(*trunc) : Cell::missing());
  for (const auto& values : args) c.push_back(first_text(values));
  const bool is_int = layout.kernel_time_int;
  c.push_back(Cell::real(pandas::group_mean(kernel_times)));
  c.push_back(Cell::real(pandas::group_median(kernel_times)));
  c.push_back(Cell::real(pandas::group_std(kernel_times)));
  c.push_back(Cell::number(pandas::group_min(kernel_times, is_int)));
  c.push_back(Cell::number(pandas::group_max(kernel_times, is_int)));
  const PandasNumber sum = pandas::group_sum(kernel_times, is_int);
  c.push_back(Cell::number(sum));
  out.kernel_sum = sum.value;
  c.push_back(Cell::integer(static_cast<double>(g.rows.size())));
  c.push_back(Cell::integer(static_cast<double>(first.uid)));
  return out;
}

}  // namespace

SheetTable summarize_sheet_rows(const std::vector<SheetRow>& rows) {
  SheetTable table;
  if (rows.empty()) return table;
  Layout layout;
  layout.params = param_keys(rows);
  const std::vector<bool> float_columns = float_param_columns(rows, layout.params);
  layout.roofline = std::any_of(rows.begin(), rows.end(), [](const SheetRow& r) {
    return r.metrics.roofline_time_us.has_value();
  });
  layout.kernel_time_int = std::all_of(rows.begin(), rows.end(),
                                       [](const SheetRow& r) { return r.kernel_time_us.is_int; });

  std::vector<Group> groups;
  std::map<std::string, std::size_t> index;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    Group g;
    g.params = param_strings(rows[r], layout.params, float_columns);
    g.num_kernels = std::to_string(rows[r].kernel_details.size());
    std::string key = rows[r].name;
    for (const auto& p : g.params) key.append("\x1f").append(p);
    key.append("\x1f").append(g.num_kernels);
    const auto [it, inserted] = index.emplace(std::move(key), groups.size());
    if (inserted) groups.push_back(std::move(g));
    groups[it->second].rows.push_back(r);
  }

  std::vector<SummaryRow> summary;
  summary.reserve(groups.size());
  for (const Group& g : groups) summary.push_back(summarize_group(rows, g, layout));
  // Kernel Time (µs)_sum descending, then UID_first (unique per group) ascending.
  std::sort(summary.begin(), summary.end(), [](const SummaryRow& a, const SummaryRow& b) {
    if (a.kernel_sum != b.kernel_sum) return a.kernel_sum > b.kernel_sum;
    return a.uid_first < b.uid_first;
  });

  table.columns = header(layout);
  for (auto& s : summary) table.rows.push_back(std::move(s.cells));
  return table;
}

}  // namespace loupe::core::prepare::sheets
