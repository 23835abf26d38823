#include "capture_record.hpp"

#include <spdlog/spdlog.h>

namespace loupe::core::session {

// The run record's account of the attribution, and the terminal's.
Json capture_record(const trace::CaptureAttribution& a, const trace::TraceModel& exec) {
  Json j = Json::object();
  Json files = Json::array();
  for (const auto& f : a.files) {
    Json one = Json::object();
    one["path"] = f.path;
    one["capture_windows"] = static_cast<std::int64_t>(f.windows);
    one["matched_replays"] = static_cast<std::int64_t>(f.matched_replays);
    one["status"] = f.matched_replays > 0 ? "used" : "ignored: matches no graph replay";
    files.push_back(std::move(one));
  }
  j["files"] = std::move(files);
  j["graph_replays"] = static_cast<std::int64_t>(a.graph_launches);
  j["attributed_replays"] = static_cast<std::int64_t>(a.matched_launches);
  j["attributed_gpu_ops"] = static_cast<std::int64_t>(a.attributed_gpu_ops);
  j["matched_by_kernel_name_counts"] = static_cast<std::int64_t>(a.aligned_by_name);
  j["python_frames_dropped"] = a.python_frames_dropped;
  Json unmatched = Json::array();
  for (const auto& u : a.unmatched) {
    Json one = Json::object();
    one["graph_launch_uid"] = static_cast<std::int64_t>(u.graph_launch);
    one["graph_launch"] = std::string(exec.name(u.graph_launch));
    one["ts_us"] = u.ts_us;
    one["gpu_ops"] = static_cast<std::int64_t>(u.gpu_ops);
    one["first_kernel"] = u.first_kernel;
    unmatched.push_back(std::move(one));
  }
  j["unmatched_replays"] = std::move(unmatched);
  return j;
}

void log_capture_attribution(const trace::CaptureAttribution& a) {
  for (const auto& f : a.files) {
    if (f.matched_replays == 0) {
      spdlog::warn(
          "capture trace {} matches no graph replay of the trace ({} capture windows): "
          "ignored",
          f.path, f.windows);
    }
  }
  spdlog::info("capture traces: {} of {} graph replays attributed ({} GPU ops get their ops)",
               a.matched_launches, a.graph_launches, a.attributed_gpu_ops);
  std::size_t shown = 0;
  for (const auto& u : a.unmatched) {
    if (shown++ == 5) {
      spdlog::warn("... {} more unmatched replays (loupe_run.json capture_traces)",
                   a.unmatched.size() - 5);
      break;
    }
    spdlog::warn("unmatched graph replay at {:.3f} us: {} GPU ops, first {}", u.ts_us, u.gpu_ops,
                 u.first_kernel);
  }
  if (a.python_frames_dropped) {
    spdlog::warn(
        "capture traces: python frames of later replays left out (size budget); their "
        "ops are attributed without call stacks");
  }
}

}  // namespace loupe::core::session
