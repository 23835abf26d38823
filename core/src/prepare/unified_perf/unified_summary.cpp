#include "unified_summary.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <numeric>
#include <string_view>
#include <unordered_map>

#include "comparison_columns.hpp"
#include "loupe/core/prepare/pandas_csv.hpp"
#include "loupe/core/prepare/pandas_numerics.hpp"
#include "op_group_key.hpp"

namespace loupe::core::prepare::unified {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A float column's values over a group with NaN dropped (pandas skipna).
std::vector<double> present(const std::vector<double>& values) {
  std::vector<double> out;
  for (const double v : values) {
    if (!std::isnan(v)) out.push_back(v);
  }
  return out;
}

// mean, std, median, min, max of a float column with NaN skipped; NaN when nothing is left.
struct FloatStats {
  double mean = kNaN, std = kNaN, median = kNaN, min = kNaN, max = kNaN;
};

FloatStats float_stats(const std::vector<double>& values) {
  const auto v = present(values);
  FloatStats s;
  if (v.empty()) return s;
  s.mean = pandas::group_mean(v);
  s.std = pandas::group_std(v);
  s.median = pandas::group_median(v);
  s.min = *std::min_element(v.begin(), v.end());
  s.max = *std::max_element(v.begin(), v.end());
  return s;
}

struct NumberStats {
  PandasNumber sum, min, max;
  double mean = kNaN, std = kNaN, median = kNaN;
};

NumberStats number_stats(const std::vector<double>& values, bool is_int) {
  NumberStats s;
  s.sum = pandas::group_sum(values, is_int);
  s.min = pandas::group_min(values, is_int);
  s.max = pandas::group_max(values, is_int);
  s.mean = pandas::group_mean(values);
  s.std = pandas::group_std(values);
  s.median = pandas::group_median(values);
  return s;
}

// groupby "first": the first non-NaN value.
double first_of(const std::vector<double>& values) {
  for (const double v : values) {
    if (!std::isnan(v)) return v;
  }
  return kNaN;
}

struct Group {
  std::vector<std::size_t> rows;
};

// Which optional column blocks the table has: the model metrics exist only when some row has
// them (a DataFrame built from dicts has the union of their keys), the roofline ones only with
// an arch and a row whose roofline could be computed.
struct Layout {
  bool metrics = false;
  bool roofline = false;
  bool call_stacks = false;
};

std::vector<std::string> header(const Layout& layout) {
  std::vector<std::string> h = {"name",
                                "op category",
                                "process_name",
                                "process_label",
                                "thread_name",
                                "Input Dims",
                                "Input type",
                                "Input Strides",
                                "Concrete Inputs",
                                "ex_UID",
                                "operation_count",
                                "total_duration_us",
                                "mean_duration_us",
                                "std_duration_us"};
  if (layout.metrics) {
    for (const char* c : {"GFLOPS", "Data Moved (MB)", "FLOPS/Byte", "Compute Spec"}) {
      h.emplace_back(c);
    }
  }
  if (layout.roofline) h.emplace_back("Roofline Bound");
  if (layout.metrics) {
    for (const char* c : {"TB/s_mean", "TB/s_std", "TFLOPS/s_mean", "TFLOPS/s_std"}) {
      h.emplace_back(c);
    }
  }
  for (const char* c : {"Kernel Time (µs)_mean", "Kernel Time (µs)_std", "Kernel Time (µs)_sum",
                        "duration_us_median", "duration_us_min", "duration_us_max"}) {
    h.emplace_back(c);
  }
  if (layout.metrics) {
    for (const char* c : {"TB/s_median", "TB/s_min", "TB/s_max", "TFLOPS/s_median", "TFLOPS/s_min",
                          "TFLOPS/s_max"}) {
      h.emplace_back(c);
    }
  }
  if (layout.roofline) {
    for (const char* c : {"Roofline Time (µs)_first", "Pct Roofline_mean", "Pct Roofline_median",
                          "Pct Roofline_std", "Pct Roofline_min", "Pct Roofline_max"}) {
      h.emplace_back(c);
    }
  }
  for (const char* c :
       {"Kernel Time (µs)_median", "Kernel Time (µs)_min", "Kernel Time (µs)_max",
        "kernel_details_summary", "trunc_kernel_details", "perf_params", "has_perf_model"}) {
    h.emplace_back(c);
  }
  if (layout.call_stacks) {
    h.emplace_back("entry_point");
    h.emplace_back("call_stack_full");
  }
  h.emplace_back("Percentage (%)");
  h.emplace_back("Cumulative Percentage (%)");
  return h;
}

CsvValue real_or_empty(double v) { return std::isnan(v) ? CsvValue::empty() : CsvValue::real(v); }
CsvValue number_or_empty(const PandasNumber& n) {
  return std::isnan(n.value) ? CsvValue::empty() : CsvValue::number(n);
}

}  // namespace

std::vector<OpGroupKernels> group_kernels(const std::vector<UnifiedRow>& rows) {
  std::vector<OpGroupKernels> groups;
  std::unordered_map<OpGroupKey, std::size_t, OpGroupKeyHash> index;  // groups keep their order
  for (const UnifiedRow& row : rows) {
    const auto [it, inserted] = index.emplace(op_group_key(row), groups.size());
    if (inserted) groups.push_back({row.uid, {}});
    auto& kernels = groups[it->second].kernels;
    kernels.insert(kernels.end(), row.gpu_events.begin(), row.gpu_events.end());
  }
  return groups;
}

std::string unified_summary_csv(const std::vector<UnifiedRow>& rows, bool with_roofline,
                                const CallStackFn& call_stacks, const TraceComparison* comparison) {
  // Groups in first-appearance order.
  std::vector<Group> groups;
  std::vector<std::size_t> row_group(rows.size());
  std::unordered_map<OpGroupKey, std::size_t, OpGroupKeyHash> index;  // looked up only
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const auto [it, inserted] = index.emplace(op_group_key(rows[r]), groups.size());
    if (inserted) groups.emplace_back();
    groups[it->second].rows.push_back(r);
    row_group[r] = it->second;
  }
  Layout layout;
  layout.metrics =
      std::any_of(rows.begin(), rows.end(), [](const UnifiedRow& r) { return r.has_metrics; });
  // TraceLens adds the roofline keys only to rows whose roofline it could compute (a known
  // compute spec and bytes), so the columns exist when at least one row has them.
  layout.roofline = with_roofline && std::any_of(rows.begin(), rows.end(), [](const UnifiedRow& r) {
                      return r.has_metrics && !std::isnan(r.roofline_time_us);
                    });
  layout.call_stacks = static_cast<bool>(call_stacks);
  // The comparison columns: each GPU op belongs to the group of the last row holding it.
  std::vector<std::optional<LcaSummary>> lca_summaries;
  if (comparison != nullptr) {
    std::unordered_map<trace::Uid, std::size_t> kernel_to_group;
    for (std::size_t r = 0; r < rows.size(); ++r) {
      for (const trace::Uid kernel : rows[r].gpu_events) kernel_to_group[kernel] = row_group[r];
    }
    lca_summaries = comparison->lca_summaries(kernel_to_group, groups.size());
  }
  // pandas' dtype of the duration column: int64 when every op has an int duration, object (whose
  // empty sums are the int 0) when none has one, float64 otherwise. Missing durations are skipped
  // by every statistic, so a group without any has sum 0 and no mean, median, min or max.
  const bool no_duration =
      std::none_of(rows.begin(), rows.end(), [](const UnifiedRow& r) { return r.has_duration; });
  const bool duration_int =
      no_duration || std::all_of(rows.begin(), rows.end(), [](const UnifiedRow& r) {
        return r.has_duration && r.duration_us.is_int;
      });
  const bool kernel_int = std::all_of(rows.begin(), rows.end(),
                                      [](const UnifiedRow& r) { return r.kernel_time_us.is_int; });

  struct Output {
    std::vector<CsvValue> cells;  // without the percentage columns
    PandasNumber kernel_sum;
    std::int64_t ex_uid = 0;
  };
  std::vector<Output> outputs;
  outputs.reserve(groups.size());
  for (const Group& g : groups) {
    const UnifiedRow& first = rows[g.rows.front()];
    std::vector<double> durations, kernel_times, gflops, moved, fpb, tbs, tflops, roof_time, pct;
    std::vector<std::span<const KernelDetail>> details;
    const UnifiedRow* with_params = nullptr;
    const UnifiedRow* with_spec = nullptr;
    const UnifiedRow* template_row = nullptr;
    for (const std::size_t r : g.rows) {
      const UnifiedRow& row = rows[r];
      if (row.has_duration) durations.push_back(row.duration_us.value);
      kernel_times.push_back(row.kernel_time_us.value);
      const auto metric = [&](double v) { return row.has_metrics ? v : kNaN; };
      gflops.push_back(metric(row.gflops));
      moved.push_back(metric(row.data_moved_mb));
      fpb.push_back(metric(row.flops_per_byte));
      tbs.push_back(metric(row.tb_per_s));
      tflops.push_back(metric(row.tflops_per_s));
      roof_time.push_back(metric(row.roofline_time_us));
      pct.push_back(metric(row.pct_roofline));
      details.emplace_back(row.kernel_details);
      if (with_params == nullptr && row.perf_params) with_params = &row;
      if (with_spec == nullptr && row.has_metrics) with_spec = &row;
      if (template_row == nullptr && !row.kernel_details.empty()) template_row = &row;
    }
    const NumberStats dur = number_stats(durations, duration_int);
    const NumberStats kt = number_stats(kernel_times, kernel_int);
    const FloatStats tb = float_stats(tbs), tf = float_stats(tflops), pr = float_stats(pct);

    Output out;
    out.kernel_sum = kt.sum;
    out.ex_uid = first.uid;
    auto& c = out.cells;
    for (const std::string_view text :
         {first.name, std::string_view(first.category), first.process_name, first.process_label,
          first.thread_name}) {
      c.push_back(CsvValue::text(std::string(text)));
    }
    for (const auto& arg : first.args) c.push_back(arg ? CsvValue::text(*arg) : CsvValue::empty());
    c.push_back(CsvValue::integer(first.uid));
    c.push_back(CsvValue::integer(static_cast<std::int64_t>(g.rows.size())));
    c.push_back(CsvValue::number(dur.sum));
    c.push_back(real_or_empty(dur.mean));
    c.push_back(real_or_empty(dur.std));
    if (layout.metrics) {
      c.push_back(real_or_empty(first_of(gflops)));
      c.push_back(real_or_empty(first_of(moved)));
      c.push_back(real_or_empty(first_of(fpb)));
      c.push_back(with_spec != nullptr ? CsvValue::text(with_spec->compute_spec)
                                       : CsvValue::empty());
    }
    if (layout.roofline) {
      c.push_back(with_spec != nullptr ? CsvValue::text(with_spec->roofline_bound)
                                       : CsvValue::empty());
    }
    if (layout.metrics) {
      for (const double v : {tb.mean, tb.std, tf.mean, tf.std}) c.push_back(real_or_empty(v));
    }
    c.push_back(real_or_empty(kt.mean));
    c.push_back(real_or_empty(kt.std));
    c.push_back(CsvValue::number(kt.sum));
    if (!lca_summaries.empty()) {
      const auto extra = comparison_cells(lca_summaries[outputs.size()], kt.sum.value);
      c.insert(c.end(), extra.begin(), extra.end());
    }
    c.push_back(real_or_empty(dur.median));
    c.push_back(number_or_empty(dur.min));
    c.push_back(number_or_empty(dur.max));
    if (layout.metrics) {
      for (const double v : {tb.median, tb.min, tb.max, tf.median, tf.min, tf.max}) {
        c.push_back(real_or_empty(v));
      }
    }
    if (layout.roofline) {
      c.push_back(real_or_empty(first_of(roof_time)));
      for (const double v : {pr.mean, pr.median, pr.std, pr.min, pr.max}) {
        c.push_back(real_or_empty(v));
      }
    }
    c.push_back(real_or_empty(kt.median));
    c.push_back(CsvValue::number(kt.min));
    c.push_back(CsvValue::number(kt.max));
    const auto stats = summarize_kernel_details(details);
    c.push_back(CsvValue::text(kernel_details_summary_repr(stats)));
    const auto trunc = trunc_kernel_details_repr(stats);
    c.push_back(trunc ? CsvValue::text(*trunc) : CsvValue::empty());
    c.push_back(with_params != nullptr ? CsvValue::text(*with_params->perf_params)
                                       : CsvValue::empty());
    c.push_back(CsvValue::boolean(first.has_perf_model));
    if (layout.call_stacks) {
      const CallStackCells cells = template_row != nullptr
                                       ? call_stacks(*template_row, stats)
                                       : CallStackCells{"Not found", "Not found"};
      c.push_back(CsvValue::text(cells.entry_point));
      c.push_back(CsvValue::text(cells.call_stack_full));
    }
    outputs.push_back(std::move(out));
  }

  // Sort by (Kernel Time sum desc, ex_UID asc).
  std::vector<std::size_t> order(outputs.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (outputs[a].kernel_sum.value != outputs[b].kernel_sum.value) {
      return outputs[a].kernel_sum.value > outputs[b].kernel_sum.value;
    }
    return outputs[a].ex_uid < outputs[b].ex_uid;
  });
  std::vector<double> sums;
  for (const std::size_t i : order) sums.push_back(outputs[i].kernel_sum.value);
  const double total = pandas::series_sum(sums, kernel_int).value;
  std::vector<double> percent;
  for (const double s : sums) percent.push_back(s / total * 100);
  const auto cumulative = pandas::series_cumsum(percent);

  std::vector<std::string> columns = header(layout);
  if (!lca_summaries.empty()) {
    const auto at = std::find(columns.begin(), columns.end(), "Kernel Time (µs)_sum") + 1;
    columns.insert(at, kComparisonColumns.begin(), kComparisonColumns.end());
  }
  PandasCsvWriter writer(columns);
  for (std::size_t k = 0; k < order.size(); ++k) {
    auto cells = outputs[order[k]].cells;
    cells.push_back(CsvValue::real(percent[k]));
    cells.push_back(CsvValue::real(cumulative[k]));
    writer.add_row(cells);
  }
  return writer.text();
}

}  // namespace loupe::core::prepare::unified
