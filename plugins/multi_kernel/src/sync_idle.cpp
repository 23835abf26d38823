#include "sync_idle.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>

#include "py_number.hpp"

namespace loupe::multi_kernel {

namespace {

struct GpuOp {
  std::int64_t start = 0;
  std::int64_t end = 0;
  bool host_waits = false;  // D2H, or launched by a synchronous copy call
  std::string op_name;
  std::string launcher_name;
  std::string direction;
};

std::optional<std::int64_t> integer(const std::string& text) {
  std::int64_t v = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size()) return std::nullopt;
  return v;
}

bool is_memcpy(const std::string& kind) { return kind == "memcpy"; }

bool synchronous_call(const std::string& launcher) {
  return launcher.find("emcpy") != std::string::npos && launcher.find("Async") == std::string::npos;
}

}  // namespace

SyncIdle assess_sync_idle(const RawTable* gpu_events) {
  SyncIdle out;
  if (gpu_events == nullptr) return out;
  const auto column = [&](const char* name) -> std::optional<size_t> {
    const auto& cols = gpu_events->columns;
    const auto it = std::find(cols.begin(), cols.end(), name);
    if (it == cols.end()) return std::nullopt;
    return static_cast<size_t>(it - cols.begin());
  };
  const auto kind = column("kind");
  const auto device = column("device");
  const auto ts = column("ts_ns");
  const auto dur = column("dur_ns");
  const auto launcher = column("launcher_name");
  const auto op = column("op_name");
  const auto direction = column("memcpy_direction");
  if (!kind || !device || !ts || !dur || !launcher || !op || !direction) return out;
  out.evaluated = true;

  std::map<std::string, std::vector<GpuOp>> by_device;
  for (const auto& row : gpu_events->rows) {
    const auto start = integer(row[*ts]);
    const auto length = integer(row[*dur]);
    if (!start || !length) continue;
    GpuOp g;
    g.start = *start;
    g.end = *start + *length;
    if (is_memcpy(row[*kind])) {
      g.direction = row[*direction];
      g.launcher_name = row[*launcher];
      g.op_name = row[*op];
      g.host_waits = g.direction == "D2H" || synchronous_call(g.launcher_name);
      if (g.host_waits) ++out.copies;
    }
    by_device[row[*device]].push_back(std::move(g));
  }

  std::map<std::pair<std::string, std::string>, SyncIdleSource> sources;
  for (auto& [dev, ops] : by_device) {
    std::stable_sort(ops.begin(), ops.end(),
                     [](const GpuOp& a, const GpuOp& b) { return a.start < b.start; });
    // Busy intervals; `last` is the op that ends the current interval.
    size_t last = 0;
    std::int64_t busy_end = ops.empty() ? 0 : ops[0].end;
    for (size_t i = 1; i <= ops.size(); ++i) {
      if (i < ops.size() && ops[i].start <= busy_end) {
        if (ops[i].end >= busy_end) {
          busy_end = ops[i].end;
          last = i;
        }
        continue;
      }
      if (i == ops.size()) break;
      const double gap_ms = static_cast<double>(ops[i].start - busy_end) / 1e6;
      out.total_idle_ms += gap_ms;
      const GpuOp& closer = ops[last];
      if (closer.host_waits) {
        ++out.copies_before_idle;
        out.idle_after_ms += gap_ms;
        out.largest_gap_ms = std::max(out.largest_gap_ms, gap_ms);
        SyncIdleSource& s = sources[{closer.op_name, closer.launcher_name}];
        s.op_name = closer.op_name;
        s.launcher_name = closer.launcher_name;
        s.direction = closer.direction;
        s.gaps += 1;
        s.idle_ms += gap_ms;
      }
      busy_end = ops[i].end;
      last = i;
    }
  }
  for (auto& [key, s] : sources) out.sources.push_back(std::move(s));
  std::stable_sort(
      out.sources.begin(), out.sources.end(),
      [](const SyncIdleSource& a, const SyncIdleSource& b) { return a.idle_ms > b.idle_ms; });
  return out;
}

std::optional<double> cpu_idle_host_blocked_ms(const Json& cpu_idle_metrics) {
  const Json* breakdown = cpu_idle_metrics.find("idle_breakdown");
  if (breakdown == nullptr) return std::nullopt;
  const Json* evaluated = breakdown->find("evaluated");
  if (evaluated == nullptr || !evaluated->is_bool() || !evaluated->as_bool()) return std::nullopt;
  const Json* by_cause = breakdown->find("by_cause");
  const Json* sync = by_cause == nullptr ? nullptr : by_cause->find("synchronization_ms");
  if (sync == nullptr || !sync->is_number() || !(sync->as_double() >= 0)) return std::nullopt;
  return sync->as_double();
}

SyncIdleSavings sync_idle_savings(const SyncIdle& s, double span_ms) {
  SyncIdleSavings out;
  const double claimed = s.claimed_ms();
  out.high_ms = claimed;
  out.mid_ms = 0.875 * claimed;
  out.low_ms = 0.75 * claimed;
  out.percent_of_span = span_ms > 0 ? claimed / span_ms * 100 : 0.0;
  return out;
}

bool sync_idle_reportable(const SyncIdle& s, double span_ms) {
  return s.evaluated && s.copies_before_idle > 0 && span_ms > 0 &&
         s.claimed_ms() / span_ms * 100 >= kSyncIdleCardPercent;
}

Json sync_idle_json(const SyncIdle& s, double span_ms) {
  Json j = Json::object();
  j["evaluated"] = s.evaluated;
  if (!s.evaluated) {
    j["details"] = "No raw-trace GPU timeline (the run did not start from a trace)";
    return j;
  }
  j["host_wait_copy_count"] = s.copies;
  j["copies_followed_by_idle"] = s.copies_before_idle;
  j["idle_after_copies_ms"] = py_round(PyNumber::real(s.idle_after_ms), 3).to_json();
  j["gpu_idle_ms"] = py_round(PyNumber::real(s.total_idle_ms), 3).to_json();
  j["largest_gap_ms"] = py_round(PyNumber::real(s.largest_gap_ms), 3).to_json();
  Json sources = Json::array();
  for (const auto& src : s.sources) {
    Json item = Json::object();
    item["op_name"] = src.op_name;
    item["launcher_name"] = src.launcher_name;
    item["direction"] = src.direction;
    item["gaps"] = src.gaps;
    item["idle_ms"] = py_round(PyNumber::real(src.idle_ms), 3).to_json();
    sources.push_back(std::move(item));
  }
  j["sources"] = std::move(sources);
  if (s.host_blocked_ms) {
    j["host_blocked_ms_per_cpu_idle"] = py_round(PyNumber::real(*s.host_blocked_ms), 3).to_json();
  }
  j["claimed_idle_ms"] = py_round(PyNumber::real(s.claimed_ms()), 3).to_json();
  const SyncIdleSavings savings = sync_idle_savings(s, span_ms);
  j["reported"] = sync_idle_reportable(s, span_ms);
  j["estimated_savings_ms"] = py_round(PyNumber::real(savings.mid_ms), 3).to_json();
  j["estimated_savings_ms_high"] = py_round(PyNumber::real(savings.high_ms), 3).to_json();
  if (span_ms > 0) {
    j["impact_score"] = py_round(PyNumber::real(savings.mid_ms / span_ms * 100), 2).to_json();
    j["impact_score_low"] = py_round(PyNumber::real(savings.low_ms / span_ms * 100), 2).to_json();
    j["impact_score_high"] = py_round(PyNumber::real(savings.high_ms / span_ms * 100), 2).to_json();
  }
  return j;
}

}  // namespace loupe::multi_kernel
