#include "loupe/core/trace/memory_timeline.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <unordered_map>

#include <rapidjson/document.h>

namespace loupe::core::trace {

namespace {

std::string device_name(std::int64_t type, std::int64_t id) {
  if (type == 0) return "cpu";
  if (type == 1) return "cuda:" + std::to_string(id);
  return "device" + std::to_string(type) + ":" + std::to_string(id);
}

// deviceProperties[].totalGlobalMem by id.
std::map<std::int64_t, std::int64_t> device_capacities(const TraceModel& model) {
  std::map<std::int64_t, std::int64_t> out;
  const std::string* props = model.trace_metadata_value("deviceProperties");
  if (props == nullptr) return out;
  rapidjson::Document doc;
  doc.Parse(props->c_str());
  if (doc.HasParseError() || !doc.IsArray()) return out;
  for (const auto& d : doc.GetArray()) {
    if (!d.IsObject() || !d.HasMember("id") || !d["id"].IsInt64()) continue;
    if (!d.HasMember("totalGlobalMem") || !d["totalGlobalMem"].IsInt64()) continue;
    out[d["id"].GetInt64()] = d["totalGlobalMem"].GetInt64();
  }
  return out;
}

// The int args of allocator events, all read in one pass over an event's args instead of one
// TraceModel::int_arg scan per key (six per event, 0.65 M calls on the 8x owlv2 trace). Each is
// what int_arg gives: the first arg of the key (keys compared by interned id, which the pool
// makes unique), when its value is a whole int64 literal.
class MemoryArgReader {
 public:
  enum Key { kDeviceType, kDeviceId, kAllocated, kReserved, kBytes, kAddr, kKeyCount };
  using Values = std::array<std::optional<std::int64_t>, kKeyCount>;

  explicit MemoryArgReader(const TraceModel& model) : model_(model) {
    constexpr std::array<std::string_view, kKeyCount> kNames = {
        "Device Type", "Device Id", "Total Allocated", "Total Reserved", "Bytes", "Addr"};
    for (std::size_t k = 0; k < kKeyCount; ++k) ids_[k] = model.strings().find(kNames[k]);
  }

  Values read(Uid uid) const {
    Values values;
    std::array<bool, kKeyCount> seen{};
    for (const ArgPair& arg : model_.args(uid)) {
      for (std::size_t k = 0; k < kKeyCount; ++k) {
        if (seen[k] || ids_[k] == kNoString || arg.key != ids_[k]) continue;
        seen[k] = true;
        values[k] = model_.int_value(arg);
      }
    }
    return values;
  }

 private:
  const TraceModel& model_;
  std::array<StringId, kKeyCount> ids_{};
};

// The innermost cpu_op of a thread enclosing a time: the last one starting at or before it,
// else the first of its ancestors that still encloses it.
class OpFinder {
 public:
  OpFinder(const TraceModel& model, const EventTree& tree) : model_(model), tree_(tree) {
    for (Uid u = 0; u < model.event_count(); ++u) {
      const Event& e = model.event(u);
      if (e.category != Category::kCpuOp || (e.flags & kHasTs) == 0 || (e.flags & kHasDur) == 0) {
        continue;
      }
      by_thread_[e.thread].emplace_back(e.ts_ns, u);
    }
    for (auto& [thread, v] : by_thread_) std::stable_sort(v.begin(), v.end());
  }

  std::string_view op_at(std::uint32_t thread, std::int64_t ts) const {
    const auto it = by_thread_.find(thread);
    if (it == by_thread_.end()) return {};
    const auto& v = it->second;
    auto at = std::upper_bound(v.begin(), v.end(), std::pair<std::int64_t, Uid>{ts, kNoUid});
    if (at == v.begin()) return {};
    for (Uid u = std::prev(at)->second; u != kNoUid; u = tree_.parent(u)) {
      const Event& e = model_.event(u);
      if (e.category != Category::kCpuOp) continue;
      if (e.ts_ns <= ts && ts <= e.ts_ns + e.dur_ns) return model_.name(u);
    }
    return {};
  }

 private:
  const TraceModel& model_;
  const EventTree& tree_;
  std::unordered_map<std::uint32_t, std::vector<std::pair<std::int64_t, Uid>>> by_thread_;
};

struct Raw {
  MemorySample sample;
  std::int64_t addr = 0;
  bool has_addr = false;
};

void summarize(DeviceMemory& d, const std::vector<Raw>& raws, const StepTable& steps) {
  std::size_t peak_index = 0;
  bool first = true;
  std::int64_t previous_reserved = 0;
  for (std::size_t i = 0; i < raws.size(); ++i) {
    const MemorySample& s = raws[i].sample;
    if (first || s.allocated > d.peak_allocated) {
      d.peak_allocated = s.allocated;
      d.peak_allocated_ts_ns = s.ts_ns;
      peak_index = i;
    }
    d.peak_reserved = first ? s.reserved : std::max(d.peak_reserved, s.reserved);
    if (!first && s.reserved != previous_reserved) ++d.reserved_changes;
    previous_reserved = s.reserved;
    first = false;
    if (s.bytes > 0) {
      ++d.allocations;
      d.allocated_bytes += s.bytes;
    } else if (s.bytes < 0) {
      ++d.frees;
    }
  }
  // What was live at the peak: replay the blocks by address up to the peak event.
  struct Block {
    std::int64_t bytes;
    std::string_view op;
  };
  std::unordered_map<std::int64_t, Block> live;
  for (std::size_t i = 0; i <= peak_index && i < raws.size(); ++i) {
    const Raw& r = raws[i];
    if (!r.has_addr) continue;
    if (r.sample.bytes > 0) {
      live[r.addr] = {r.sample.bytes, r.sample.op};
    } else if (r.sample.bytes < 0) {
      live.erase(r.addr);
    }
  }
  std::map<std::string_view, LiveByOp> by_op;
  std::int64_t tracked = 0;
  for (const auto& [addr, b] : live) {
    LiveByOp& l = by_op[b.op];
    l.op = b.op;
    l.bytes += b.bytes;
    ++l.blocks;
    tracked += b.bytes;
  }
  for (auto& [op, l] : by_op) d.live_at_peak.push_back(std::move(l));
  std::stable_sort(d.live_at_peak.begin(), d.live_at_peak.end(),
                   [](const LiveByOp& a, const LiveByOp& b) { return a.bytes > b.bytes; });
  d.live_before_trace_bytes = std::max<std::int64_t>(0, d.peak_allocated - tracked);

  // Per step: the events inside its host annotation.
  for (const StepRow& step : steps.steps) {
    StepMemory m;
    m.step = step.name;
    m.warmup = step.warmup;
    bool any = false;
    std::int64_t previous = 0;
    bool have_previous = false;
    const auto begin =
        std::lower_bound(raws.begin(), raws.end(), step.start_ns,
                         [](const Raw& r, std::int64_t t) { return r.sample.ts_ns < t; });
    if (begin != raws.begin()) {
      previous = std::prev(begin)->sample.reserved;
      have_previous = true;
    }
    for (auto it = begin; it != raws.end() && it->sample.ts_ns < step.end_ns; ++it) {
      const MemorySample& s = it->sample;
      if (s.bytes > 0) {
        ++m.allocations;
        m.allocated_bytes += s.bytes;
      } else if (s.bytes < 0) {
        ++m.frees;
      }
      if (have_previous && s.reserved != previous) ++m.reserved_changes;
      previous = s.reserved;
      have_previous = true;
      m.peak_allocated = any ? std::max(m.peak_allocated, s.allocated) : s.allocated;
      any = true;
    }
    d.steps.push_back(std::move(m));
  }
}

}  // namespace

MemoryTimeline build_memory_timeline(const TraceModel& model, const EventTree& tree,
                                     const StepTable& steps) {
  MemoryTimeline t;
  std::vector<Uid> events;
  for (Uid u = 0; u < model.event_count(); ++u) {
    const Event& e = model.event(u);
    if (e.phase != Phase::kInstant || (e.flags & kHasTs) == 0) continue;
    if (model.name(u) != "[memory]") continue;
    events.push_back(u);
  }
  t.events = events.size();
  if (events.empty()) return t;
  const OpFinder ops(model, tree);
  const auto capacities = device_capacities(model);
  std::map<std::pair<std::int64_t, std::int64_t>, std::vector<Raw>> by_device;
  const MemoryArgReader arg_reader(model);
  using Arg = MemoryArgReader::Key;
  for (const Uid u : events) {
    const MemoryArgReader::Values args = arg_reader.read(u);
    const auto& type = args[Arg::kDeviceType];
    const auto& id = args[Arg::kDeviceId];
    if (!type || !id) {
      ++t.without_device;
      continue;
    }
    const auto& allocated = args[Arg::kAllocated];
    const auto& reserved = args[Arg::kReserved];
    if (!allocated || !reserved) {
      ++t.without_totals;
      continue;
    }
    Raw r;
    const Event& e = model.event(u);
    r.sample.ts_ns = e.ts_ns;
    r.sample.allocated = *allocated;
    r.sample.reserved = *reserved;
    r.sample.bytes = args[Arg::kBytes].value_or(0);
    r.sample.op = ops.op_at(e.thread, e.ts_ns);
    if (const auto& addr = args[Arg::kAddr]) {
      r.addr = *addr;
      r.has_addr = true;
    }
    by_device[{*type, *id}].push_back(std::move(r));
  }
  for (auto& [key, raws] : by_device) {
    std::stable_sort(raws.begin(), raws.end(),
                     [](const Raw& a, const Raw& b) { return a.sample.ts_ns < b.sample.ts_ns; });
    DeviceMemory d;
    d.device = device_name(key.first, key.second);
    d.gpu = key.first != 0;
    if (d.gpu) {
      if (const auto c = capacities.find(key.second); c != capacities.end()) {
        d.capacity_bytes = c->second;
      }
    }
    summarize(d, raws, steps);
    d.samples.reserve(raws.size());
    for (Raw& r : raws) d.samples.push_back(std::move(r.sample));
    t.devices.push_back(std::move(d));
  }
  std::stable_sort(t.devices.begin(), t.devices.end(),
                   [](const DeviceMemory& a, const DeviceMemory& b) { return a.gpu > b.gpu; });
  return t;
}

namespace {

std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\n\r") == std::string_view::npos) return std::string(text);
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace

std::string memory_timeline_csv(const MemoryTimeline& t) {
  std::string out = "device,ts_ns,allocated_bytes,reserved_bytes,bytes,op\n";
  for (const DeviceMemory& d : t.devices) {
    for (const MemorySample& s : d.samples) {
      out += d.device + "," + std::to_string(s.ts_ns) + "," + std::to_string(s.allocated) + "," +
             std::to_string(s.reserved) + "," + std::to_string(s.bytes) + "," + csv_field(s.op) +
             "\n";
    }
  }
  return out;
}

Json memory_timeline_json(const MemoryTimeline& t, std::size_t max_points) {
  Json doc = Json::object();
  doc["events"] = static_cast<std::int64_t>(t.events);
  doc["without_device"] = static_cast<std::int64_t>(t.without_device);
  doc["without_totals"] = static_cast<std::int64_t>(t.without_totals);
  Json devices = Json::array();
  for (const DeviceMemory& d : t.devices) {
    Json j = Json::object();
    j["device"] = d.device;
    j["gpu"] = d.gpu;
    j["capacity_bytes"] = d.capacity_bytes;
    j["samples"] = static_cast<std::int64_t>(d.samples.size());
    j["first_ns"] = d.samples.empty() ? 0 : d.samples.front().ts_ns;
    j["last_ns"] = d.samples.empty() ? 0 : d.samples.back().ts_ns;
    j["peak_allocated"] = d.peak_allocated;
    j["peak_allocated_ts_ns"] = d.peak_allocated_ts_ns;
    j["peak_reserved"] = d.peak_reserved;
    j["allocations"] = static_cast<std::int64_t>(d.allocations);
    j["frees"] = static_cast<std::int64_t>(d.frees);
    j["allocated_bytes"] = d.allocated_bytes;
    j["reserved_changes"] = static_cast<std::int64_t>(d.reserved_changes);
    j["live_before_trace_bytes"] = d.live_before_trace_bytes;
    Json live = Json::array();
    for (const LiveByOp& l : d.live_at_peak) {
      Json x = Json::object();
      x["op"] = l.op;
      x["bytes"] = l.bytes;
      x["blocks"] = static_cast<std::int64_t>(l.blocks);
      live.push_back(std::move(x));
    }
    j["live_at_peak"] = std::move(live);
    Json steps = Json::array();
    for (const StepMemory& m : d.steps) {
      Json x = Json::object();
      x["step"] = m.step;
      x["warmup"] = m.warmup;
      x["allocations"] = static_cast<std::int64_t>(m.allocations);
      x["frees"] = static_cast<std::int64_t>(m.frees);
      x["allocated_bytes"] = m.allocated_bytes;
      x["reserved_changes"] = static_cast<std::int64_t>(m.reserved_changes);
      x["peak_allocated"] = m.peak_allocated;
      steps.push_back(std::move(x));
    }
    j["steps"] = std::move(steps);
    // The series, reduced to the largest totals of each time bucket.
    Json series = Json::array();
    if (!d.samples.empty() && max_points > 0) {
      const std::int64_t t0 = d.samples.front().ts_ns;
      const std::int64_t span = std::max<std::int64_t>(1, d.samples.back().ts_ns - t0);
      std::vector<std::size_t> pick(max_points, d.samples.size());
      for (std::size_t i = 0; i < d.samples.size(); ++i) {
        const auto b = static_cast<std::size_t>(static_cast<double>(d.samples[i].ts_ns - t0) /
                                                static_cast<double>(span) *
                                                static_cast<double>(max_points - 1));
        std::size_t& p = pick[std::min(b, max_points - 1)];
        if (p == d.samples.size() || d.samples[i].allocated > d.samples[p].allocated) p = i;
      }
      for (const std::size_t p : pick) {
        if (p == d.samples.size()) continue;
        Json point = Json::array();
        point.push_back(d.samples[p].ts_ns);
        point.push_back(d.samples[p].allocated);
        point.push_back(d.samples[p].reserved);
        series.push_back(std::move(point));
      }
    }
    j["series"] = std::move(series);
    devices.push_back(std::move(j));
  }
  doc["devices"] = std::move(devices);
  return doc;
}

}  // namespace loupe::core::trace
