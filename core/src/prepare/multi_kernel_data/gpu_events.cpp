#include "gpu_events.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <string_view>

#include "loupe/core/prepare/multi_kernel_data.hpp"
#include "loupe/core/trace/gpu_timeline.hpp"

namespace loupe::core::prepare::mk {

namespace {

bool contains_any(std::string_view text, std::initializer_list<std::string_view> needles) {
  return std::any_of(needles.begin(), needles.end(),
                     [&](std::string_view n) { return text.find(n) != std::string_view::npos; });
}

// A JSON integer token as int64 (nullopt for anything else).
std::optional<std::int64_t> parse_int(std::string_view text) {
  std::int64_t v = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size()) return std::nullopt;
  return v;
}

}  // namespace

Direction memcpy_direction(std::string_view name) {
  std::string n(name);
  std::transform(n.begin(), n.end(), n.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (contains_any(n, {"dtoh", "device -> host", "devicetohost"})) return Direction::kD2H;
  if (contains_any(n, {"htod", "host -> device", "hosttodevice"})) return Direction::kH2D;
  if (contains_any(n, {"dtod", "device -> device", "devicetodevice"})) return Direction::kD2D;
  return Direction::kOther;
}

}  // namespace loupe::core::prepare::mk

namespace loupe::core::prepare {

std::string_view memcpy_direction_name(std::string_view name) {
  return mk::kDirectionNames[static_cast<int>(mk::memcpy_direction(name))];
}

}  // namespace loupe::core::prepare

namespace loupe::core::prepare::mk {

std::vector<GpuEvent> collect_gpu_events(const trace::TraceModel& model) {
  std::vector<GpuEvent> out;
  const auto n = static_cast<trace::Uid>(model.event_count());
  for (trace::Uid u = 0; u < n; ++u) {
    const trace::Event& e = model.event(u);
    if (!trace::is_gpu_category(e.category)) continue;
    GpuEvent g;
    g.uid = u;
    g.cls = trace::classify_gpu_op(e.category, model.name(u));
    g.has_ts = (e.flags & trace::kHasTs) != 0;
    g.has_dur = (e.flags & trace::kHasDur) != 0;
    g.ts = g.has_ts ? model.ts_us(u) : 0.0;
    g.dur = g.has_dur ? model.dur_us(u) : 0.0;
    out.push_back(g);
  }
  return out;
}

std::int64_t memcpy_bytes(const trace::TraceModel& model, trace::Uid uid) {
  const auto text = model.arg_text(uid, "bytes");
  if (!text || *text == "null" || *text == "false") return 0;
  if (const auto v = parse_int(*text)) return *v;
  if (!text->empty() && text->front() == '"') {
    throw StepError("unsupported operand type(s) for +: 'int' and 'str'");
  }
  throw StepError("unsupported bytes value: " + *text);
}

std::optional<std::int64_t> event_stream(const trace::TraceModel& model, trace::Uid uid) {
  const auto text = model.arg_text(uid, "stream");
  if (!text) return std::nullopt;
  const auto v = parse_int(*text);
  if (!v || *v == 0) return std::nullopt;
  return v;
}

}  // namespace loupe::core::prepare::mk
