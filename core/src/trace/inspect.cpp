#include "loupe/core/trace/inspect.hpp"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <unordered_map>

namespace loupe::core::trace {

namespace {

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.*f", decimals, v);
  return buf;
}

std::string mb(std::uint64_t bytes) { return fixed(static_cast<double>(bytes) / 1e6, 1) + " MB"; }

}  // namespace

InspectSummary summarize(const LoadResult& loaded, const EventTree& tree, TimeMode mode,
                         std::size_t top_n) {
  const TraceModel& m = loaded.model;
  InspectSummary s;
  s.json_bytes = loaded.json_bytes;
  s.file_bytes = loaded.input_bytes;
  s.gzip = loaded.gzip;
  s.events = m.event_count();
  s.model_bytes = m.memory_bytes();
  s.time_mode = mode;
  for (int c = 0; c < kCategoryCount; ++c) {
    const auto n = m.events_in_category(static_cast<Category>(c));
    if (n > 0) s.by_category.emplace_back(std::string(category_name(static_cast<Category>(c))), n);
  }
  std::stable_sort(s.by_category.begin(), s.by_category.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  s.device_names = m.device_names();
  s.linking_key = tree.linking_key() == LinkingKey::kCorrelation ? "correlation" : "External id";
  s.gpu_only = tree.gpu_only();
  s.tree = tree.stats();
  GpuTimelineOptions topt;
  topt.time_mode = mode;
  s.timeline = compute_gpu_timeline(m, tree, topt);

  std::map<std::string, std::pair<std::uint64_t, std::set<std::string>>> devices;
  std::unordered_map<StringId, KernelTotal> kernels;
  for (Uid u = 0; u < m.event_count(); ++u) {
    const Event& e = m.event(u);
    if (!is_gpu_category(e.category)) continue;
    if (e.thread != kNoIndex) {
      const ThreadKey& k = m.threads()[e.thread].key;
      auto& d = devices[m.id_text(k.pid)];
      ++d.first;
      d.second.insert(m.id_text(k.tid));
    }
    if (e.category == Category::kKernel && tree.linked(u) && (e.flags & kHasDur) != 0) {
      auto& k = kernels[e.name];
      if (k.count == 0) k.name = std::string(m.name(u));
      ++k.count;
      k.total_us += mode == TimeMode::kExact ? static_cast<double>(e.dur_ns) / 1000.0 : m.dur_us(u);
    }
  }
  for (auto& [pid, d] : devices) {
    s.devices.push_back(
        DeviceSummary{pid, d.first, std::vector<std::string>(d.second.begin(), d.second.end())});
  }
  for (auto& [id, k] : kernels) s.top_kernels.push_back(std::move(k));
  std::sort(s.top_kernels.begin(), s.top_kernels.end(),
            [](const KernelTotal& a, const KernelTotal& b) {
              return a.total_us != b.total_us ? a.total_us > b.total_us : a.name < b.name;
            });
  if (s.top_kernels.size() > top_n) s.top_kernels.resize(top_n);
  const TraceDiagnostics& diag = m.diagnostics();
  for (int w = 0; w < static_cast<int>(Warning::kCount); ++w) {
    if (diag.warnings[w] > 0)
      s.warnings.emplace_back(warning_description(static_cast<Warning>(w)), diag.warnings[w]);
  }
  s.warning_samples = diag.samples;
  return s;
}

std::string render_text(const InspectSummary& s) {
  std::string o;
  o += "Trace: " + s.path + "\n";
  o += "  size: " + mb(s.file_bytes) + (s.gzip ? " gzip, " : " JSON, ") + mb(s.json_bytes) +
       " JSON text\n";
  o += "  events: " + std::to_string(s.events) + " (model " + mb(s.model_bytes) + "), load " +
       fixed(s.load_seconds, 3) + " s (" +
       fixed(s.load_seconds > 0 ? static_cast<double>(s.json_bytes) / 1e6 / s.load_seconds : 0.0,
             0) +
       " MB/s), tree " + fixed(s.tree_seconds, 3) + " s\n";
  o += "Events by category:\n";
  for (const auto& [name, n] : s.by_category) o += "  " + name + ": " + std::to_string(n) + "\n";
  o += "Devices:";
  if (s.device_names.empty()) o += " (no deviceProperties)";
  o += "\n";
  for (std::size_t i = 0; i < s.device_names.size(); ++i)
    o += "  [" + std::to_string(i) + "] " + s.device_names[i] + "\n";
  for (const auto& d : s.devices) {
    o += "  GPU pid " + d.pid + ": " + std::to_string(d.ops) + " GPU ops on streams";
    for (const auto& st : d.streams) o += " " + st;
    o += "\n";
  }
  o += "Tree: linking key " + s.linking_key + (s.gpu_only ? ", GPU-only trace" : "") + "; " +
       std::to_string(s.tree.gpu_linked) + " of " + std::to_string(s.tree.gpu_ops) +
       " GPU ops linked, " + std::to_string(s.tree.cpu_roots) + " CPU root ops, " +
       std::to_string(s.tree.dropped_by_bleed) + " host events dropped by the bleed rule\n";
  if (s.tree.graph_launches_without_kernels > 0) {
    o += "  " + std::to_string(s.tree.graph_launches_without_kernels) +
         " GPU-graph launch(es) with no replayed kernels in the trace (their GPU time is "
         "missing)\n";
  }
  o += std::string("GPU time (linked GPU ops, ") +
       (s.time_mode == TimeMode::kExact ? "exact" : "TraceLens-compatible") + " arithmetic):\n";
  if (!s.timeline) {
    o += "  no linked GPU ops\n";
  } else {
    const GpuTimeline& t = *s.timeline;
    const auto row = [&](const char* name, double us) {
      o += std::string("  ") + name + ": " + fixed(us / 1000.0, 3) + " ms (" +
           fixed(t.total > 0 ? us / t.total * 100.0 : 0.0, 2) + "%)\n";
    };
    row("total", t.total);
    row("busy", t.busy);
    row("idle", t.idle);
    row("computation", t.computation);
    row("communication (total)", t.total_comm);
    row("communication (exposed)", t.exposed_comm);
    row("memcpy (total)", t.total_memcpy);
    row("memcpy (exposed)", t.exposed_memcpy);
  }
  o += "Top kernels (linked, by total time):\n";
  for (const auto& k : s.top_kernels) {
    std::string name = k.name.size() > 100 ? k.name.substr(0, 100) + "..." : k.name;
    o += "  " + fixed(k.total_us / 1000.0, 3) + " ms  x" + std::to_string(k.count) + "  " + name +
         "\n";
  }
  if (!s.warnings.empty()) {
    o += "Warnings:\n";
    for (const auto& [what, n] : s.warnings) o += "  " + std::to_string(n) + " " + what + "\n";
    for (const auto& sample : s.warning_samples) o += "    e.g. " + sample + "\n";
  }
  return o;
}

std::string render_json(const InspectSummary& s) {
  rapidjson::StringBuffer buf;
  rapidjson::Writer<rapidjson::StringBuffer> w(buf);
  const auto u64 = [&](const char* k, std::uint64_t v) {
    w.Key(k);
    w.Uint64(v);
  };
  w.StartObject();
  w.Key("path");
  w.String(s.path.c_str());
  u64("file_bytes", s.file_bytes);
  u64("json_bytes", s.json_bytes);
  w.Key("gzip");
  w.Bool(s.gzip);
  u64("events", s.events);
  u64("model_bytes", s.model_bytes);
  w.Key("load_seconds");
  w.Double(s.load_seconds);
  w.Key("events_by_category");
  w.StartObject();
  for (const auto& [name, n] : s.by_category) u64(name.c_str(), n);
  w.EndObject();
  w.Key("device_names");
  w.StartArray();
  for (const auto& d : s.device_names) w.String(d.c_str());
  w.EndArray();
  w.Key("gpu_devices");
  w.StartArray();
  for (const auto& d : s.devices) {
    w.StartObject();
    w.Key("pid");
    w.String(d.pid.c_str());
    u64("gpu_ops", d.ops);
    w.Key("streams");
    w.StartArray();
    for (const auto& st : d.streams) w.String(st.c_str());
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.Key("tree");
  w.StartObject();
  w.Key("linking_key");
  w.String(s.linking_key.c_str());
  w.Key("gpu_only");
  w.Bool(s.gpu_only);
  u64("host_events", s.tree.host_events);
  u64("cpu_roots", s.tree.cpu_roots);
  u64("dropped_by_bleed", s.tree.dropped_by_bleed);
  u64("reparented_by_bleed", s.tree.reparented_by_bleed);
  u64("runtime_calls", s.tree.runtime_calls);
  u64("gpu_ops", s.tree.gpu_ops);
  u64("gpu_linked", s.tree.gpu_linked);
  u64("launches_without_gpu_op", s.tree.launches_without_gpu_op);
  u64("graph_launches_without_kernels", s.tree.graph_launches_without_kernels);
  u64("fwd_bwd_links", s.tree.fwd_bwd_links);
  w.EndObject();
  w.Key("time_mode");
  w.String(s.time_mode == TimeMode::kExact ? "exact" : "tracelens");
  w.Key("gpu_timeline_us");
  if (s.timeline) {
    const GpuTimeline& t = *s.timeline;
    w.StartObject();
    const auto d = [&](const char* k, double v) {
      w.Key(k);
      w.Double(v);
    };
    d("computation_time", t.computation);
    d("exposed_comm_time", t.exposed_comm);
    d("exposed_memcpy_time", t.exposed_memcpy);
    d("busy_time", t.busy);
    d("idle_time", t.idle);
    d("total_time", t.total);
    d("total_comm_time", t.total_comm);
    d("total_memcpy_time", t.total_memcpy);
    w.EndObject();
  } else {
    w.Null();
  }
  w.Key("top_kernels");
  w.StartArray();
  for (const auto& k : s.top_kernels) {
    w.StartObject();
    w.Key("name");
    w.String(k.name.c_str(), static_cast<rapidjson::SizeType>(k.name.size()));
    u64("count", k.count);
    w.Key("total_us");
    w.Double(k.total_us);
    w.EndObject();
  }
  w.EndArray();
  w.Key("warnings");
  w.StartObject();
  for (const auto& [what, n] : s.warnings) u64(what.c_str(), n);
  w.EndObject();
  w.EndObject();
  return std::string(buf.GetString(), buf.GetSize()) + "\n";
}

}  // namespace loupe::core::trace
