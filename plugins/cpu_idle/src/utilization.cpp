#include "utilization.hpp"

#include <cmath>
#include <cstdlib>
#include <map>
#include <vector>

#include "loupe/python_format.hpp"

namespace loupe::cpu_idle {

namespace {

constexpr const char* kTimeColumn = "time ms";
constexpr const char* kPercentColumn = "percent";
constexpr double kIdleFlagPercent = 15.0;

bool is_int_literal(std::string_view text) {
  size_t i = (!text.empty() && (text[0] == '+' || text[0] == '-')) ? 1 : 0;
  if (i >= text.size()) return false;
  for (; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
  }
  return true;
}

// A CSV column as pandas types it: int64 when every cell is an integer literal, else float64
// (empty cells are NaN). A cell that is not a number makes the column text: nullopt.
std::optional<std::vector<Json>> numeric_column(const TableView& t, size_t column) {
  bool all_int = true;
  for (size_t r = 0; r < t.rows(); ++r) all_int = all_int && is_int_literal(t.cell(r, column).text);
  std::vector<Json> out;
  for (size_t r = 0; r < t.rows(); ++r) {
    const std::string_view text = t.cell(r, column).text;
    double value = 0.0;
    if (text.empty()) {
      out.emplace_back(std::nan(""));
    } else if (!py::parse_float(text, value)) {
      return std::nullopt;
    } else if (all_int) {
      out.emplace_back(
          static_cast<long long>(std::strtoll(std::string(text).c_str(), nullptr, 10)));
    } else {
      out.emplace_back(value);
    }
  }
  return out;
}

std::string timeline_file(const ModelView& model) {
  const JsonView manifest = model.document(kManifestFile);
  const bool comparative =
      manifest.is_object() && manifest["comparison_scope"].as_string("standalone") == "comparative";
  return comparative ? "perf_report_trace1_csvs/gpu_timeline.csv"
                     : "perf_report_csvs/gpu_timeline.csv";
}

std::string ops_summary_file(const std::string& timeline) {
  return timeline.substr(0, timeline.rfind('/')) + "/ops_summary.csv";
}

double sum_column(const std::vector<Json>& values) {
  double total = 0.0;
  for (const auto& v : values) total += number(v);
  return total;
}

// analyze_kernel_patterns: the counts TraceLens derives from ops_summary.csv. The perf report's
// ops_summary.csv has neither kernel-time column nor `op category`, so on real runs every count
// stays 0 (docs/deviations.md, CPU/idle analyzer).
Json kernel_patterns(const TableView& ops) {
  Json p = Json::object();
  p["short_kernel_count"] = 0;
  p["total_kernel_count"] = 0;
  p["avg_kernel_time_us"] = 0;
  p["kernel_count_by_category"] = Json::object();
  if (!ops || ops.rows() == 0) return p;
  const size_t count_col = ops.column("Count");
  const size_t sum_col = ops.column("Kernel Time (µs)_sum");
  const size_t mean_col = ops.column("Kernel Time (µs)_mean");
  const size_t cat_col = ops.column("op category");
  const auto counts = count_col != TableView::npos ? numeric_column(ops, count_col) : std::nullopt;
  if (counts && sum_col != TableView::npos) {
    const auto sums = numeric_column(ops, sum_col);
    const auto total_count = static_cast<long long>(sum_column(*counts));
    p["total_kernel_count"] = total_count;
    if (sums && total_count > 0)
      p["avg_kernel_time_us"] = sum_column(*sums) / static_cast<double>(total_count);
    if (mean_col != TableView::npos) {
      if (const auto means = numeric_column(ops, mean_col)) {
        double short_count = 0.0;
        for (size_t r = 0; r < means->size(); ++r) {
          if (number((*means)[r]) < 10) short_count += number((*counts)[r]);
        }
        p["short_kernel_count"] = static_cast<long long>(short_count);
      }
    }
  }
  if (counts && cat_col != TableView::npos) {
    std::map<std::string, double> by_category;  // pandas groupby: sorted keys, empty dropped
    for (size_t r = 0; r < ops.rows(); ++r) {
      const std::string_view cat = ops.cell(r, cat_col).text;
      if (!cat.empty()) by_category[std::string(cat)] += number((*counts)[r]);
    }
    Json cats = Json::object();
    for (const auto& [k, v] : by_category) cats[k] = static_cast<long long>(v);
    p["kernel_count_by_category"] = std::move(cats);
  }
  return p;
}

}  // namespace

double number(const Json& value) { return value.is_number() ? value.as_double() : std::nan(""); }

Json py_round(const Json& value, int ndigits) {
  if (value.is_int()) return value;
  return Json(py::round_half_even(value.as_double(), ndigits));
}

Utilization read_utilization(const ModelView& model) {
  Utilization u;
  u.timeline_file = timeline_file(model);
  const TableView t = model.table(u.timeline_file);
  if (!t) {
    const auto why = model.property("load_error:" + u.timeline_file);
    u.problem = why ? u.timeline_file + " could not be read: " + *why
                    : "GPU timeline not found: " + u.timeline_file;
    return u;
  }
  for (const char* c : {"type", kTimeColumn, kPercentColumn}) {
    if (t.column(c) == TableView::npos) {
      u.problem = u.timeline_file + ": no column '" + c + "'";
      return u;
    }
  }
  const auto times = numeric_column(t, t.column(kTimeColumn));
  const auto percents = numeric_column(t, t.column(kPercentColumn));
  if (!times || !percents) {
    u.problem = u.timeline_file + ": a '" + std::string(!times ? kTimeColumn : kPercentColumn) +
                "' cell is not a number";
    return u;
  }
  // Last row wins per type, as in a Python dict.
  std::map<std::string, size_t> row_of;
  for (size_t r = 0; r < t.rows(); ++r) row_of[std::string(t.cell(r, "type").text)] = r;
  const auto pick = [&](const char* type, const std::vector<Json>& column, const char* what) {
    const auto it = row_of.find(type);
    if (it == row_of.end()) return Json(0);  // dict.get(..., 0)
    const Json& v = column[it->second];
    if (v.is_double() && std::isnan(v.as_double()) && !u.has_nan) {
      u.has_nan = true;
      u.nan_where = u.timeline_file + ": '" + what + "' of row '" + type + "' is empty";
    }
    return v;
  };
  u.idle_percent = pick("idle_time", *percents, kPercentColumn);
  u.idle_time_ms = pick("idle_time", *times, kTimeColumn);
  u.total_time_ms = pick("total_time", *times, kTimeColumn);
  u.computation_percent = pick("computation_time", *percents, kPercentColumn);
  u.communication_percent = pick("exposed_comm_time", *percents, kPercentColumn);
  u.memcpy_percent = pick("exposed_memcpy_time", *percents, kPercentColumn);
  u.idle_flagged = number(u.idle_percent) > kIdleFlagPercent;
  const TableView ops = model.table(ops_summary_file(u.timeline_file));
  u.kernel_analysis = kernel_patterns(ops);
  u.kernel_columns = ops && ops.column("Kernel Time (µs)_sum") != TableView::npos;
  return u;
}

Json tracelens_metrics(const Utilization& u) {
  Json m = Json::object();
  m["status"] = "OK";
  m["idle_flagged"] = u.idle_flagged;
  Json g = Json::object();
  g["total_time_ms"] = py_round(u.total_time_ms, 3);
  g["idle_time_ms"] = py_round(u.idle_time_ms, 3);
  g["idle_time_percent"] = py_round(u.idle_percent, 2);
  g["computation_percent"] = py_round(u.computation_percent, 2);
  g["communication_percent"] = py_round(u.communication_percent, 2);
  g["memcpy_percent"] = py_round(u.memcpy_percent, 2);
  m["gpu_utilization"] = std::move(g);
  m["kernel_analysis"] = u.kernel_analysis;
  m["impact_estimates"] = Json::array();
  return m;
}

Json tracelens_error_metrics(const std::string& message) {
  Json m = Json::object();
  m["status"] = "ERROR";
  m["error"] = message;
  return m;
}

}  // namespace loupe::cpu_idle
