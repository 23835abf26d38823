// Assembly of multi_kernel_data.json (§2.3, §3.5) and the Step 5 category rule.
#include "loupe/core/prepare/multi_kernel_data.hpp"

#include <exception>

#include "gpu_events.hpp"
#include "overlap_analysis.hpp"
#include "summaries.hpp"

namespace loupe::core::prepare {

namespace {

// The payload Step 4.5 writes when it raised anywhere.
loupe::Json fallback_payload(const std::string& error) {
  loupe::Json out = loupe::Json::object();
  out["memcpy_summary"] = loupe::Json::Object{
      {"total_count", 0}, {"total_time_us", 0}, {"by_direction", loupe::Json::object()}};
  out["nccl_summary"] = loupe::Json::Object{{"total_count", 0}, {"total_time_us", 0}};
  out["overlap_analysis"] = loupe::Json::object();
  out["error"] = error;
  return out;
}

std::int64_t count_of(const loupe::Json& data, std::string_view section) {
  const loupe::Json* s = data.find(section);
  const loupe::Json* c = s != nullptr ? s->find("total_count") : nullptr;
  return c != nullptr && c->is_int() ? c->as_int() : 0;
}

}  // namespace

loupe::Json build_multi_kernel_data(const trace::TraceModel& model,
                                    const MultiKernelOptions& options) {
  try {
    const std::vector<mk::GpuEvent> events = mk::collect_gpu_events(model);
    loupe::Json out = loupe::Json::object();
    out["memcpy_summary"] = mk::memcpy_summary(model, events, options.integer_times);
    out["nccl_summary"] = mk::nccl_summary(model, events, options.integer_times);
    out["overlap_analysis"] = mk::overlap_analysis(events, options.integer_times);
    return out;
  } catch (const mk::StepError& e) {
    return fallback_payload(e.what());
  }
}

std::string multi_kernel_data_text(const loupe::Json& data) {
  return loupe::dump_python_json(data, 2);
}

bool has_multi_kernel_events(const loupe::Json& data) {
  return count_of(data, "memcpy_summary") > 0 || count_of(data, "nccl_summary") > 0;
}

}  // namespace loupe::core::prepare
