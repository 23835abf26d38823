#include "loupe/core/report/memory_report.hpp"

#include <algorithm>
#include <cstdio>

#include "loupe/core/util/text_escape.hpp"
#include "loupe/python_format.hpp"
#include "report_text.hpp"

namespace loupe::core {

namespace {

using report_detail::fixed;
using report_detail::int_or_zero;
using report_detail::member_of;
using report_detail::number_or_zero;
using report_detail::text_at;

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
constexpr std::size_t kLiveOpsListed = 10;

bool flag(const Json& j, const char* key) {
  const Json& v = member_of(j, key);
  return v.is_bool() && v.as_bool();
}

std::string gib(std::int64_t bytes) { return fixed(static_cast<double>(bytes) / kGiB, 3); }

double ms_between(std::int64_t a_ns, std::int64_t b_ns) {
  return py::round_half_even(static_cast<double>(b_ns - a_ns) / 1e6, 3);
}

Json memory_finding(const std::string& rule, const std::string& device, std::string title,
                    std::string insight, std::string action) {
  Json f = Json::object();
  f["id"] = "memory-" + rule + "-" + device;
  f["rule"] = rule;
  f["device"] = device;
  f["title"] = std::move(title);
  f["insight"] = std::move(insight);
  f["action"] = std::move(action);
  return f;
}

}  // namespace

Json memory_report_block(const Json& doc, double platform_memory_gib) {
  const Json& devices_in = member_of(doc, "devices");
  if (!doc.is_object() || !devices_in.is_array()) return {};
  Json block = Json::object();
  const std::int64_t events = int_or_zero(doc, "events");
  block["allocator_events"] = events;
  Json not_used = Json::array();
  if (const std::int64_t n = int_or_zero(doc, "without_device"); n > 0) {
    not_used.push_back(std::to_string(n) +
                       " allocator event(s) name no device (Device Type / Device Id)");
  }
  if (const std::int64_t n = int_or_zero(doc, "without_totals"); n > 0) {
    not_used.push_back(std::to_string(n) +
                       " allocator event(s) carry no Total Allocated / Total Reserved");
  }
  block["not_used"] = std::move(not_used);
  Json devices = Json::array();
  Json findings = Json::array();
  for (const Json& d : devices_in.as_array()) {
    const std::string name = text_at(d, "device");
    const bool gpu = flag(d, "gpu");
    Json o = Json::object();
    o["device"] = name;
    o["gpu"] = gpu;
    std::int64_t capacity = int_or_zero(d, "capacity_bytes");
    std::string capacity_source = capacity > 0 ? "trace" : "";
    if (gpu && capacity <= 0 && platform_memory_gib > 0) {
      capacity = static_cast<std::int64_t>(platform_memory_gib * kGiB);
      capacity_source = "platform";
    }
    const std::int64_t peak = int_or_zero(d, "peak_allocated");
    const std::int64_t reserved = int_or_zero(d, "peak_reserved");
    const std::int64_t first = int_or_zero(d, "first_ns");
    o["capacity_bytes"] = gpu && capacity > 0 ? Json(capacity) : Json();
    o["capacity_source"] = capacity_source.empty() ? Json() : Json(capacity_source);
    o["events"] = int_or_zero(d, "samples");
    o["peak_allocated_bytes"] = peak;
    o["peak_allocated_at_ms"] = ms_between(first, int_or_zero(d, "peak_allocated_ts_ns"));
    o["peak_reserved_bytes"] = reserved;
    o["peak_reserved_percent_of_capacity"] =
        gpu && capacity > 0
            ? Json(py::round_half_even(
                  100.0 * static_cast<double>(reserved) / static_cast<double>(capacity), 1))
            : Json();
    o["allocations"] = int_or_zero(d, "allocations");
    o["frees"] = int_or_zero(d, "frees");
    o["allocated_bytes"] = int_or_zero(d, "allocated_bytes");
    o["reserved_changes"] = int_or_zero(d, "reserved_changes");
    o["live_before_trace_bytes"] = int_or_zero(d, "live_before_trace_bytes");
    Json live = Json::array();
    if (const Json& l = member_of(d, "live_at_peak"); l.is_array()) {
      for (std::size_t i = 0; i < l.size() && i < kLiveOpsListed; ++i) {
        const Json& x = l.as_array()[i];
        Json y = Json::object();
        y["op"] = text_at(x, "op").empty() ? "(no enclosing cpu_op)" : text_at(x, "op");
        y["bytes"] = int_or_zero(x, "bytes");
        y["blocks"] = int_or_zero(x, "blocks");
        live.push_back(std::move(y));
      }
    }
    o["live_at_peak"] = std::move(live);
    o["steps"] = member_of(d, "steps");
    Json series = Json::array();
    if (const Json& s = member_of(d, "series"); s.is_array()) {
      for (const Json& p : s.as_array()) {
        if (!p.is_array() || p.size() != 3) continue;
        const auto& a = p.as_array();
        Json q = Json::array();
        q.push_back(ms_between(first, a[0].is_int() ? a[0].as_int() : first));
        q.push_back(a[1]);
        q.push_back(a[2]);
        series.push_back(std::move(q));
      }
    }
    o["series"] = std::move(series);

    // Findings where the numbers call for them.
    if (gpu && capacity > 0 &&
        static_cast<double>(reserved) >= kNearCapacityFraction * static_cast<double>(capacity)) {
      findings.push_back(memory_finding(
          "near_capacity", name,
          "Peak reserved memory on " + name + " is " +
              fixed(100.0 * static_cast<double>(reserved) / static_cast<double>(capacity), 1) +
              "% of the device's " + gib(capacity) + " GiB",
          "The caching allocator reserved up to " + gib(reserved) + " GiB (" + gib(peak) +
              " GiB allocated at the peak) of " + gib(capacity) + " GiB (" +
              (capacity_source == "trace" ? "the trace's device properties" : "the platform") +
              "): a larger batch or sequence, or fragmentation, will run out of memory.",
          "Reduce the peak: activation checkpointing, a smaller micro-batch, freeing tensors "
          "earlier; against fragmentation set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True."));
    }
    if (gpu) {
      std::int64_t changes = 0, steps_with = 0, steady = 0;
      std::string example;
      if (const Json& st = member_of(d, "steps"); st.is_array()) {
        for (const Json& s : st.as_array()) {
          if (flag(s, "warmup")) continue;
          ++steady;
          if (int_or_zero(s, "reserved_changes") == 0) continue;
          ++steps_with;
          changes += int_or_zero(s, "reserved_changes");
          if (example.empty()) {
            example = text_at(s, "step") + ": " +
                      std::to_string(int_or_zero(s, "reserved_changes")) + " change(s), " +
                      std::to_string(int_or_zero(s, "allocations")) + " allocations of " +
                      gib(int_or_zero(s, "allocated_bytes")) + " GiB";
          }
        }
      }
      if (steps_with > 0) {
        findings.push_back(memory_finding(
            "allocator_churn", name,
            "The caching allocator reserved or released memory on " + name + " inside " +
                std::to_string(steps_with) + " of " + std::to_string(steady) + " steady step(s)",
            "The reserved total changed " + std::to_string(changes) +
                " time(s) inside steps (e.g. " + example +
                "): each change is a device malloc or free, which synchronizes the device, "
                "instead of a reuse of cached blocks.",
            "Keep memory reserved across steps: no torch.cuda.empty_cache() in the loop, warm "
            "up before profiling, keep tensor shapes stable (pad to a few sizes), and try "
            "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True."));
      }
    }
    devices.push_back(std::move(o));
  }
  block["devices"] = std::move(devices);
  block["findings"] = std::move(findings);
  block["note"] =
      events == 0
          ? "the trace has no allocator events ([memory]): record with "
            "torch.profiler.profile(profile_memory=True) to get a memory timeline"
          : "from the PyTorch caching allocator's events: the peaks are the allocator's own "
            "totals; perf_report_csvs/memory_timeline.csv holds every event";
  return block;
}

namespace {

std::string svg_plot(const Json& device) {
  const Json& series = member_of(device, "series");
  if (!series.is_array() || series.size() < 2) return {};
  double t_max = 0.0, y_max = 0.0;
  for (const Json& p : series.as_array()) {
    const auto& a = p.as_array();
    t_max = std::max(t_max, a[0].as_double());
    y_max = std::max({y_max, a[1].as_double(), a[2].as_double()});
  }
  if (t_max <= 0.0 || y_max <= 0.0) return {};
  constexpr double kW = 640, kH = 200, kLeft = 60, kBottom = 24, kTop = 10, kRight = 10;
  const auto x = [&](double t) { return kLeft + t / t_max * (kW - kLeft - kRight); };
  const auto y = [&](double b) { return kTop + (1.0 - b / y_max) * (kH - kTop - kBottom); };
  std::string allocated, reserved;
  for (const Json& p : series.as_array()) {
    const auto& a = p.as_array();
    allocated += fixed(x(a[0].as_double()), 1) + "," + fixed(y(a[1].as_double()), 1) + " ";
    reserved += fixed(x(a[0].as_double()), 1) + "," + fixed(y(a[2].as_double()), 1) + " ";
  }
  std::string out =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"200\" "
      "role=\"img\" aria-label=\"Memory of " +
      escape_markup(text_at(device, "device")) + "\">\n";
  out +=
      "<line x1=\"60\" y1=\"176\" x2=\"630\" y2=\"176\" stroke=\"#888\"/>"
      "<line x1=\"60\" y1=\"10\" x2=\"60\" y2=\"176\" stroke=\"#888\"/>\n";
  out += R"(<text x="4" y="18" font-size="11">)" + fixed(y_max / kGiB, 2) +
         R"( GiB</text><text x="4" y="176" font-size="11">0</text>)"
         R"(<text x="560" y="196" font-size="11">)" +
         fixed(t_max, 1) + " ms</text>\n";
  out += R"(<polyline fill="none" stroke="#999" stroke-width="1.5" points=")" + reserved +
         "\"/>\n" + R"(<polyline fill="none" stroke="#1f77b4" stroke-width="1.5" points=")" +
         allocated + "\"/>\n";
  out +=
      "<text x=\"70\" y=\"22\" font-size=\"11\" fill=\"#1f77b4\">allocated</text>"
      "<text x=\"140\" y=\"22\" font-size=\"11\" fill=\"#777\">reserved</text>\n</svg>\n";
  return out;
}

std::string steps_line(const Json& d) {
  const Json& steps = member_of(d, "steps");
  if (!steps.is_array() || steps.size() == 0) return {};
  std::int64_t allocations = 0, bytes = 0, n = 0;
  for (const Json& s : steps.as_array()) {
    if (flag(s, "warmup")) continue;
    ++n;
    allocations += int_or_zero(s, "allocations");
    bytes += int_or_zero(s, "allocated_bytes");
  }
  if (n == 0) return {};
  return "per steady step on average " + std::to_string(allocations / n) + " allocations of " +
         gib(bytes / n) + " GiB";
}

}  // namespace

std::string memory_report_markdown(const Json& block) {
  if (!block.is_object()) return {};
  std::string out = "## Memory\n\n";
  if (int_or_zero(block, "allocator_events") == 0) {
    return out +
           "The trace has no allocator events ([memory]): record with "
           "`torch.profiler.profile(profile_memory=True)` to get a memory timeline.\n\n";
  }
  out += "From " + std::to_string(int_or_zero(block, "allocator_events")) +
         " PyTorch caching-allocator events; every event is in "
         "`perf_report_csvs/memory_timeline.csv`.\n\n";
  out +=
      "| Device | Peak allocated (GiB) | At (ms) | Peak reserved (GiB) | Of device memory | "
      "Allocations | Reserved changes |\n|---|---|---|---|---|---|---|\n";
  const Json& devices = member_of(block, "devices");
  for (const Json& d : devices.as_array()) {
    const Json& pct = member_of(d, "peak_reserved_percent_of_capacity");
    out += "| " + escape_markup(text_at(d, "device")) + " | " +
           gib(int_or_zero(d, "peak_allocated_bytes")) + " | " +
           fixed(number_or_zero(d, "peak_allocated_at_ms"), 3) + " | " +
           gib(int_or_zero(d, "peak_reserved_bytes")) + " | " +
           (pct.is_number() ? fixed(pct.as_double(), 1) + "%" : std::string("—")) + " | " +
           std::to_string(int_or_zero(d, "allocations")) + " | " +
           std::to_string(int_or_zero(d, "reserved_changes")) + " |\n";
  }
  out += "\n";
  for (const Json& d : devices.as_array()) {
    if (!flag(d, "gpu")) continue;
    const Json& live = member_of(d, "live_at_peak");
    out += "Live on " + escape_markup(text_at(d, "device")) +
           " at its allocated peak, by the op that "
           "allocated it";
    if (const std::int64_t before = int_or_zero(d, "live_before_trace_bytes"); before > 0) {
      out += " (" + gib(before) + " GiB was allocated before the trace began)";
    }
    out += ":\n\n| Op | Live (GiB) | Blocks |\n|---|---|---|\n";
    for (const Json& l : live.as_array()) {
      out += "| " + escape_markup(text_at(l, "op")) + " | " + gib(int_or_zero(l, "bytes")) + " | " +
             std::to_string(int_or_zero(l, "blocks")) + " |\n";
    }
    if (const std::string s = steps_line(d); !s.empty()) out += "\nAllocation churn: " + s + ".\n";
    out += "\n";
  }
  if (const Json& f = member_of(block, "findings"); f.is_array() && f.size() > 0) {
    for (const Json& x : f.as_array()) {
      out += "- **" + escape_markup(text_at(x, "title")) +
             "**: " + escape_markup(text_at(x, "insight")) + " " +
             escape_markup(text_at(x, "action")) + "\n";
    }
    out += "\n";
  }
  out += report_detail::markdown_bullets(member_of(block, "not_used"),
                                         "Not used for the memory timeline");
  return out;
}

std::string memory_report_html(const Json& block) {
  if (!block.is_object()) return {};
  std::string out = "<section id=\"memory\"><h2>Memory</h2>\n";
  if (int_or_zero(block, "allocator_events") == 0) {
    return out +
           "<p>The trace has no allocator events ([memory]): record with "
           "<code>torch.profiler.profile(profile_memory=True)</code> to get a memory "
           "timeline.</p></section>\n";
  }
  for (const Json& d : member_of(block, "devices").as_array()) {
    out += "<h3>" + escape_markup(text_at(d, "device")) + "</h3>\n<p>Peak allocated " +
           gib(int_or_zero(d, "peak_allocated_bytes")) + " GiB at " +
           fixed(number_or_zero(d, "peak_allocated_at_ms"), 3) + " ms, peak reserved " +
           gib(int_or_zero(d, "peak_reserved_bytes")) + " GiB";
    if (const Json& pct = member_of(d, "peak_reserved_percent_of_capacity"); pct.is_number()) {
      out += " (" + fixed(pct.as_double(), 1) + "% of the device)";
    }
    out += ", " + std::to_string(int_or_zero(d, "allocations")) + " allocations.</p>\n";
    out += svg_plot(d);
  }
  if (const Json& f = member_of(block, "findings"); f.is_array() && f.size() > 0) {
    out += "<ul>\n";
    for (const Json& x : f.as_array()) {
      out += "<li><b>" + escape_markup(text_at(x, "title")) +
             "</b>: " + escape_markup(text_at(x, "insight")) + " " +
             escape_markup(text_at(x, "action")) + "</li>\n";
    }
    out += "</ul>\n";
  }
  return out + "</section>\n";
}

}  // namespace loupe::core
