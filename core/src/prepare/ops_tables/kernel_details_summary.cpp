// §3.5.1 kernel_details_summary / trunc_kernel_details.
#include "loupe/core/prepare/kernel_details_summary.hpp"

#include <algorithm>

#include "json_text.hpp"
#include "loupe/core/prepare/pandas_numerics.hpp"
#include "loupe/core/prepare/py_repr.hpp"
#include "loupe/python_format.hpp"

namespace loupe::core::prepare {

namespace {

constexpr std::size_t kTruncLength = 64;

KernelStats stats_at(const KernelDetail& head, std::span<const double> durations, bool ints) {
  KernelStats s;
  s.name = head.name;
  s.stream_repr = head.stream_repr;
  s.count = durations.size();
  if (ints) {
    double total = 0.0;
    for (const double d : durations) total += d;
    s.total = {total, true};
  } else {
    s.total = {numpy::sum(durations), false};
  }
  s.mean = numpy::mean(durations);
  s.median = numpy::median(durations);
  s.std_dev = numpy::std_population(durations);
  s.min = {*std::min_element(durations.begin(), durations.end()), ints};
  s.max = {*std::max_element(durations.begin(), durations.end()), ints};
  return s;
}

// repr of args.stream, "None" when absent. A small integer (how streams are recorded) is its
// decimal text; anything else is parsed as before.
std::string stream_repr(const trace::TraceModel& model, trace::Uid uid) {
  const auto pair = model.find_arg(uid, "stream");
  if (!pair) return "None";
  if (pair->is_inline_int()) return std::to_string(pair->inline_int());
  return py_json_repr(parse_json_text(model.str(pair->value)), false);
}

}  // namespace

std::vector<KernelDetail> kernel_details_of(const trace::TraceModel& model,
                                            std::span<const trace::Uid> gpu_ops) {
  std::vector<KernelDetail> details;
  details.reserve(gpu_ops.size());
  for (const trace::Uid uid : gpu_ops) {
    KernelDetail d;
    d.name = model.name(uid);
    d.dur = {model.dur_us(uid), model.dur_is_integer(uid)};
    d.stream_repr = stream_repr(model, uid);
    details.push_back(std::move(d));
  }
  return details;
}

std::vector<KernelStats> summarize_kernel_details(
    std::span<const std::span<const KernelDetail>> rows) {
  const auto tmpl = std::find_if(rows.begin(), rows.end(),
                                 [](std::span<const KernelDetail> r) { return !r.empty(); });
  if (tmpl == rows.end()) return {};
  const std::span<const KernelDetail> head = *tmpl;

  std::vector<std::vector<double>> durations(head.size());
  std::vector<bool> all_ints(head.size(), true);
  for (const auto row : rows) {
    if (row.size() != head.size()) continue;  // TraceLens warns and skips the row
    for (std::size_t i = 0; i < row.size(); ++i) {
      durations[i].push_back(row[i].dur.value);
      if (!row[i].dur.is_int) all_ints[i] = false;
    }
  }
  std::vector<KernelStats> out;
  out.reserve(head.size());
  for (std::size_t i = 0; i < head.size(); ++i) {
    out.push_back(stats_at(head[i], durations[i], all_ints[i]));
  }
  std::stable_sort(out.begin(), out.end(), [](const KernelStats& a, const KernelStats& b) {
    if (a.total.value != b.total.value) return a.total.value < b.total.value;
    return a.name < b.name;
  });
  return out;
}

std::string kernel_details_summary_repr(std::span<const KernelStats> stats) {
  std::string out = "[";
  for (std::size_t i = 0; i < stats.size(); ++i) {
    const KernelStats& s = stats[i];
    if (i > 0) out += ", ";
    out += "{'name': ";
    out += py_str_repr(s.name);
    out += ", 'stream': ";
    out += s.stream_repr;
    out += ", 'count': ";
    out += std::to_string(s.count);
    out += ", 'total_duration_us': ";
    out += py_number_repr(s.total);
    out += ", 'mean_duration_us': ";
    out += py::float_repr(s.mean);
    out += ", 'median_duration_us': ";
    out += py::float_repr(s.median);
    out += ", 'std_dev_duration_us': ";
    out += py::float_repr(s.std_dev);
    out += ", 'min_duration_us': ";
    out += py_number_repr(s.min);
    out += ", 'max_duration_us': ";
    out += py_number_repr(s.max);
    out += '}';
  }
  out += ']';
  return out;
}

std::optional<std::string> trunc_kernel_details_repr(std::span<const KernelStats> stats) {
  if (stats.empty()) return std::nullopt;
  std::string out = "[";
  for (std::size_t i = 0; i < stats.size(); ++i) {
    const KernelStats& s = stats[i];
    if (i > 0) out += ", ";
    std::string name(py_prefix(s.name, kTruncLength));
    if (py_len(s.name) > kTruncLength) name += "...";
    out += "{'name': ";
    out += py_str_repr(name);
    out += ", 'stream': ";
    out += s.stream_repr;
    out += ", 'mean_duration_us': ";
    out += py::float_repr(py::numpy_round(s.mean, 2));
    out += '}';
  }
  out += ']';
  return out;
}

}  // namespace loupe::core::prepare
