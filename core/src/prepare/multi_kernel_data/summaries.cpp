#include "summaries.hpp"

#include <algorithm>
#include <array>

#include "py_number.hpp"

namespace loupe::core::prepare::mk {

namespace {

constexpr std::size_t kTopOps = 10;

// `dur or 0`, with the token's int/float spelling.
PandasNumber duration(const GpuEvent& e, bool integer_times) {
  if (!e.has_dur || e.dur == 0.0) return {0.0, true};
  return {e.dur, integer_times};
}

// max() keeps the first of equal maxima.
PandasNumber max_of(const std::vector<PandasNumber>& xs) {
  PandasNumber best = xs.front();
  for (const PandasNumber& x : xs) {
    if (x.value > best.value) best = x;
  }
  return best;
}

loupe::Json direction_stats(const trace::TraceModel& model, const std::vector<const GpuEvent*>& ev,
                            bool integer_times, PandasNumber& rounded_total) {
  std::vector<PandasNumber> durations;
  PySum sum;
  std::int64_t total_bytes = 0;
  bool any_bytes = false;
  for (const GpuEvent* e : ev) {
    durations.push_back(duration(*e, integer_times));
    sum.add(durations.back());
    const std::int64_t b = memcpy_bytes(model, e->uid);
    total_bytes += b;
    any_bytes = any_bytes || b != 0;
  }
  const auto count = static_cast<double>(ev.size());
  rounded_total = py_round(sum.value(), 2);
  loupe::Json out = loupe::Json::object();
  out["count"] = ev.size();
  out["total_time_us"] = to_json(rounded_total);
  out["avg_time_us"] = to_json(py_round(py_float(sum.value().value / count), 2));
  out["max_time_us"] = to_json(py_round(max_of(durations), 2));
  out["total_bytes"] = total_bytes;
  out["avg_bytes"] = any_bytes
                         ? to_json(py_round(py_float(static_cast<double>(total_bytes) / count), 2))
                         : loupe::Json(0);
  return out;
}

}  // namespace

loupe::Json memcpy_summary(const trace::TraceModel& model, const std::vector<GpuEvent>& events,
                           bool integer_times) {
  std::array<std::vector<const GpuEvent*>, 4> by_dir;
  std::size_t total_count = 0;
  for (const GpuEvent& e : events) {
    if (e.cls != trace::GpuClass::kMemcpy) continue;
    ++total_count;
    if (model.event(e.uid).name == trace::kNoString) {
      throw StepError("'NoneType' object has no attribute 'lower'");
    }
    by_dir[static_cast<std::size_t>(memcpy_direction(model.name(e.uid)))].push_back(&e);
  }
  loupe::Json by_direction = loupe::Json::object();
  PySum total;
  for (std::size_t d = 0; d < by_dir.size(); ++d) {
    if (by_dir[d].empty()) continue;
    PandasNumber rounded{};
    by_direction[kDirectionNames[d]] = direction_stats(model, by_dir[d], integer_times, rounded);
    total.add(rounded);
  }
  loupe::Json out = loupe::Json::object();
  out["total_count"] = total_count;
  out["total_time_us"] = to_json(py_round(total.value(), 2));
  out["by_direction"] = std::move(by_direction);
  return out;
}

loupe::Json nccl_summary(const trace::TraceModel& model, const std::vector<GpuEvent>& events,
                         bool integer_times) {
  std::vector<const GpuEvent*> comm;
  for (const GpuEvent& e : events) {
    if (e.cls == trace::GpuClass::kCommunication) comm.push_back(&e);
  }
  loupe::Json out = loupe::Json::object();
  out["total_count"] = comm.size();
  if (comm.empty()) {
    out["total_time_us"] = 0;
    return out;
  }
  std::vector<PandasNumber> durations;
  PySum sum;
  for (const GpuEvent* e : comm) {
    durations.push_back(duration(*e, integer_times));
    sum.add(durations.back());
  }
  out["total_time_us"] = to_json(py_round(sum.value(), 2));
  out["avg_time_us"] =
      to_json(py_round(py_float(sum.value().value / static_cast<double>(comm.size())), 2));
  out["max_time_us"] = to_json(py_round(max_of(durations), 2));

  std::vector<std::size_t> order(comm.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return durations[a].value > durations[b].value;
  });
  loupe::Json top = loupe::Json::array();
  for (std::size_t i = 0; i < order.size() && i < kTopOps; ++i) {
    const GpuEvent& e = *comm[order[i]];
    loupe::Json op = loupe::Json::object();
    op["name"] = model.name(e.uid);
    op["duration_us"] = to_json(py_round(durations[order[i]], 2));
    const auto stream = event_stream(model, e.uid);
    op["stream"] = stream ? loupe::Json(*stream) : loupe::Json(nullptr);
    top.push_back(std::move(op));
  }
  out["top_ops"] = std::move(top);
  return out;
}

}  // namespace loupe::core::prepare::mk
