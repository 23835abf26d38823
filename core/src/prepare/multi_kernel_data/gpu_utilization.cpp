// The manifest's gpu_utilization block (§2.4): gpu_timeline.csv rows read back as the
// orchestrator reads them.
#include <string>
#include <unordered_map>

#include "loupe/core/prepare/multi_kernel_data.hpp"
#include "pandas_float.hpp"

namespace loupe::core::prepare {

namespace {

struct Row {
  std::optional<double> time_ms;
  std::optional<double> percent;
};

std::vector<std::string_view> split(std::string_view line, char sep) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= line.size(); ++i) {
    if (i == line.size() || line[i] == sep) {
      out.push_back(line.substr(start, i - start));
      start = i + 1;
    }
  }
  return out;
}

loupe::Json number_or_zero(const std::optional<double>& v) {
  return v ? loupe::Json(*v) : loupe::Json(0);
}

}  // namespace

loupe::Json gpu_utilization_from_csv(std::string_view csv) {
  std::unordered_map<std::string, Row> rows;  // last row wins per type
  std::vector<std::string_view> header;
  std::size_t type_col = 0, time_col = 0, pct_col = 0;
  bool have_header = false;
  while (!csv.empty()) {
    const std::size_t nl = csv.find('\n');
    std::string_view line = csv.substr(0, nl);
    csv = nl == std::string_view::npos ? std::string_view() : csv.substr(nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    const auto cells = split(line, ',');
    if (!have_header) {
      have_header = true;
      header = cells;
      type_col = time_col = pct_col = cells.size();
      for (std::size_t i = 0; i < cells.size(); ++i) {
        if (cells[i] == "type") type_col = i;
        if (cells[i] == "time ms") time_col = i;
        if (cells[i] == "percent") pct_col = i;
      }
      continue;
    }
    if (type_col >= cells.size()) continue;
    Row r;
    if (time_col < cells.size()) r.time_ms = pandas_parse_float(cells[time_col]);
    if (pct_col < cells.size()) r.percent = pandas_parse_float(cells[pct_col]);
    rows[std::string(cells[type_col])] = r;
  }
  const auto time_of = [&](const char* type) {
    const auto it = rows.find(type);
    return it == rows.end() ? std::optional<double>() : it->second.time_ms;
  };
  const auto pct_of = [&](const char* type) {
    const auto it = rows.find(type);
    return it == rows.end() ? std::optional<double>() : it->second.percent;
  };
  loupe::Json out = loupe::Json::object();
  out["total_time_ms"] = number_or_zero(time_of("total_time"));
  out["computation_time_percent"] = number_or_zero(pct_of("computation_time"));
  out["exposed_comm_time_percent"] = number_or_zero(pct_of("exposed_comm_time"));
  out["exposed_memcpy_time_percent"] = number_or_zero(pct_of("exposed_memcpy_time"));
  out["idle_time_percent"] = number_or_zero(pct_of("idle_time"));
  return out;
}

loupe::Json gpu_utilization_from_trace(const trace::TraceModel& model,
                                       const trace::EventTree& tree) {
  trace::GpuTimelineOptions options;
  options.time_mode = trace::TimeMode::kTraceLensCompat;
  options.include_unlinked = tree.gpu_only();
  const auto timeline = trace::compute_gpu_timeline(model, tree, options);
  if (!timeline) return nullptr;
  return gpu_utilization_from_csv(trace::gpu_timeline_csv(*timeline));
}

}  // namespace loupe::core::prepare
