#include "loupe/core/trace/gpu_timeline.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <vector>

#include "loupe/python_format.hpp"

namespace loupe::core::trace {

namespace {

bool matches_with_kd(std::string_view name, std::initializer_list<std::string_view> bases) {
  if (name.ends_with(".kd")) name.remove_suffix(3);
  for (const auto b : bases) {
    if (name == b) return true;
  }
  return false;
}

template <typename V>
using Intervals = std::vector<std::pair<V, V>>;

// Sort by start (stable) and merge overlapping or touching intervals.
template <typename V>
Intervals<V> merge(Intervals<V> in) {
  std::stable_sort(in.begin(), in.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  Intervals<V> out;
  for (const auto& iv : in) {
    if (!out.empty() && iv.first <= out.back().second) {
      out.back().second = std::max(out.back().second, iv.second);
    } else {
      out.push_back(iv);
    }
  }
  return out;
}

// Portions of b not covered by a (both merged and sorted).
template <typename V>
Intervals<V> subtract(const Intervals<V>& a, const Intervals<V>& b) {
  Intervals<V> out;
  std::size_t j = 0;
  for (const auto& [bs, be] : b) {
    V cur = bs;
    while (j < a.size() && a[j].second <= cur) ++j;
    std::size_t k = j;
    while (k < a.size() && a[k].first < be) {
      if (a[k].first > cur) out.emplace_back(cur, a[k].first);
      cur = std::max(cur, a[k].second);
      if (cur >= be) break;
      ++k;
    }
    if (cur < be) out.emplace_back(cur, be);
  }
  return out;
}

template <typename V>
V length(const Intervals<V>& s) {
  V total = 0;
  for (const auto& [a, b] : s) total += b - a;
  return total;
}

template <typename Time>
GpuTimeline compute(const TraceModel& model, const std::vector<Uid>& ops,
                    const GpuTimelineOptions& options) {
  using V = typename Time::Value;
  Intervals<V> comp, comm, memcpy, all;
  for (const Uid u : ops) {
    const std::pair<V, V> iv{Time::start(model, u), Time::end(model, u)};
    all.push_back(iv);
    switch (classify_gpu_op(model.event(u).category, model.name(u))) {
      case GpuClass::kComputation:
        comp.push_back(iv);
        break;
      case GpuClass::kCommunication:
        comm.push_back(iv);
        break;
      case GpuClass::kMemcpy:
        memcpy.push_back(iv);
        break;
    }
  }
  const auto c = merge(std::move(comp));
  const auto m = merge(std::move(comm));
  const auto y = merge(std::move(memcpy));
  const auto everything = merge(std::move(all));
  GpuTimeline t;
  t.op_count = ops.size();
  const V busy = length(everything);
  const V total = everything.back().second - everything.front().first;
  t.computation = Time::to_us(length(c));
  t.exposed_comm = Time::to_us(length(subtract(c, m)));
  t.exposed_memcpy = Time::to_us(length(subtract(m, subtract(c, y))));
  t.busy = Time::to_us(busy);
  t.idle = Time::to_us(total - busy);
  t.total = Time::to_us(total);
  t.total_comm = Time::to_us(length(m));
  t.total_memcpy = Time::to_us(length(y));
  if (options.micro_idle_threshold_us) {
    V micro = 0, macro = 0;
    for (std::size_t i = 1; i < everything.size(); ++i) {
      const V gap = everything[i].first - everything[i - 1].second;
      if (Time::to_us(gap) < *options.micro_idle_threshold_us) {
        micro += gap;
      } else {
        macro += gap;
      }
    }
    t.micro_idle = Time::to_us(micro);
    t.macro_idle = Time::to_us(macro);
  }
  return t;
}

}  // namespace

namespace {
constexpr char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; }
}  // namespace

namespace {

// The byte-by-byte search, for names longer than is_communication_name's buffer.
bool contains_communication_needle(std::string_view name) {
  constexpr std::string_view kCcl = "ccl";
  constexpr std::string_view kCross = "cross_device_reduce";
  const auto folded_equals = [&](std::size_t at, std::string_view needle) {
    if (name.size() - at < needle.size()) return false;
    for (std::size_t k = 0; k < needle.size(); ++k) {
      if (ascii_lower(name[at + k]) != needle[k]) return false;
    }
    return true;
  };
  for (std::size_t i = 0; i + 4 <= name.size(); ++i) {
    const char c = ascii_lower(name[i]);
    if ((c == 'n' || c == 'r') && folded_equals(i + 1, kCcl)) return true;
    if (c == 'c' && folded_equals(i, kCross)) return true;
  }
  return false;
}

}  // namespace

// Whether `name` contains "nccl", "rccl" or "cross_device_reduce", ASCII case folded (what
// std::tolower does in the "C" locale). It runs for every GPU op in several tables
// (docs/performance.md, "Big traces"): the name is folded into a buffer in one loop the
// compiler vectorizes, then searched with find, which jumps between candidate bytes with
// memchr (about 3.5x faster than testing the needles at every byte).
bool is_communication_name(std::string_view name) {
  std::array<char, 1024> folded;
  if (name.size() > folded.size()) return contains_communication_needle(name);
  for (std::size_t i = 0; i < name.size(); ++i) folded[i] = ascii_lower(name[i]);
  const std::string_view low(folded.data(), name.size());
  for (auto at = low.find("ccl", 1); at != std::string_view::npos; at = low.find("ccl", at + 1)) {
    if (low[at - 1] == 'n' || low[at - 1] == 'r') return true;
  }
  return low.find("cross_device_reduce") != std::string_view::npos;
}

GpuClass classify_gpu_op(Category category, std::string_view name) {
  if (category == Category::kGpuMemcpy) return GpuClass::kMemcpy;
  if (category == Category::kKernel) {
    if (matches_with_kd(name, {"MEMORY_COPY_HOST_TO_DEVICE", "MEMORY_COPY_DEVICE_TO_HOST",
                               "MEMORY_COPY_DEVICE_TO_DEVICE", "__amd_rocclr_copyBuffer",
                               "__amd_rocclr_copyBufferRect", "__amd_rocclr_copyBufferAligned",
                               "__amd_rocclr_copyBufferRectAligned"})) {
      return GpuClass::kMemcpy;
    }
    if (matches_with_kd(name, {"__amd_rocclr_fillBuffer", "__amd_rocclr_fillBufferAligned"})) {
      return GpuClass::kComputation;
    }
  }
  if (is_communication_name(name)) return GpuClass::kCommunication;
  return GpuClass::kComputation;
}

std::optional<GpuTimeline> compute_gpu_timeline(const TraceModel& model, const EventTree& tree,
                                                const GpuTimelineOptions& options) {
  std::vector<Uid> ops;
  for (Uid u = 0; u < model.event_count(); ++u) {
    const Event& e = model.event(u);
    if (!is_gpu_category(e.category) || (e.flags & kHasTs) == 0 || (e.flags & kHasDur) == 0)
      continue;
    if (options.include_unlinked || tree.linked(u)) ops.push_back(u);
  }
  if (ops.empty()) return std::nullopt;
  if (options.time_mode == TimeMode::kTraceLensCompat)
    return compute<CompatTime>(model, ops, options);
  return compute<ExactTime>(model, ops, options);
}

std::string gpu_timeline_csv(const GpuTimeline& t) {
  std::vector<std::pair<std::string_view, double>> rows = {
      {"computation_time", t.computation},
      {"exposed_comm_time", t.exposed_comm},
      {"exposed_memcpy_time", t.exposed_memcpy},
      {"busy_time", t.busy}};
  if (t.micro_idle) {
    rows.emplace_back("micro_idle_time", *t.micro_idle);
    rows.emplace_back("macro_idle_time", *t.macro_idle);
  } else {
    rows.emplace_back("idle_time", t.idle);
  }
  rows.emplace_back("total_time", t.total);
  rows.emplace_back("total_comm_time", t.total_comm);
  rows.emplace_back("total_memcpy_time", t.total_memcpy);
  std::string out = "type,time ms,percent\n";
  for (const auto& [name, us] : rows) {
    out += name;
    out += ',';
    out += py::float_repr(us / 1000.0);
    out += ',';
    out += py::float_repr(us / t.total * 100.0);
    out += '\n';
  }
  return out;
}

}  // namespace loupe::core::trace
