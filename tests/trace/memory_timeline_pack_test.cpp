// The memory timeline on every trace of the reference pack that holds allocator events: each
// device's peaks equal the largest totals of its raw [memory] events, read here straight from
// the file (zlib and RapidJSON, not the trace reader).
#include <rapidjson/document.h>
#include <zlib.h>
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <string>

#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/json_reader.hpp"
#include "loupe/core/trace/memory_timeline.hpp"
#include "loupe/core/trace/step_table.hpp"
#include "reference_pack.hpp"
#include "test_paths.hpp"

namespace tr = loupe::core::trace;

namespace {

std::string read_maybe_gzip(const std::filesystem::path& path) {
  gzFile f = gzopen(path.string().c_str(), "rb");
  REQUIRE(f != nullptr);
  std::string out;
  char buffer[1 << 16];
  int n = 0;
  while ((n = gzread(f, buffer, sizeof buffer)) > 0) out.append(buffer, static_cast<size_t>(n));
  gzclose(f);
  return out;
}

struct Peaks {
  std::int64_t allocated = 0;
  std::int64_t reserved = 0;
};

}  // namespace

TEST_CASE("the memory peak is the allocator's own figure on every pack trace",
          "[trace][memory][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  const auto traces = loupe::test::pack_trace_files(shared);
  REQUIRE(traces.size() >= 40);
  std::size_t with_memory = 0, devices_checked = 0;
  for (const auto& path : traces) {
    INFO(path.string());
    const std::string text = read_maybe_gzip(path);
    if (text.find("\"[memory]\"") == std::string::npos) continue;
    rapidjson::Document raw;
    raw.Parse(text.c_str());
    REQUIRE(raw.IsObject());
    std::map<std::string, Peaks> expected;
    for (const auto& e : raw["traceEvents"].GetArray()) {
      if (!e.HasMember("name") || std::string(e["name"].GetString()) != "[memory]") continue;
      const auto& a = e["args"];
      const std::int64_t type = a["Device Type"].GetInt64(), id = a["Device Id"].GetInt64();
      const std::string device =
          type == 0
              ? "cpu"
              : (type == 1 ? "cuda:" : "device" + std::to_string(type) + ":") + std::to_string(id);
      Peaks& p = expected[device];
      p.allocated = std::max(p.allocated, a["Total Allocated"].GetInt64());
      p.reserved = std::max(p.reserved, a["Total Reserved"].GetInt64());
    }
    const auto loaded = tr::load_trace(path);
    REQUIRE_FALSE(loaded.error);
    const auto tree = tr::EventTree::build(loaded.model);
    const auto t =
        tr::build_memory_timeline(loaded.model, tree, tr::build_step_table(loaded.model, tree));
    CHECK(t.without_device == 0);
    REQUIRE(t.devices.size() == expected.size());
    for (const auto& d : t.devices) {
      INFO(d.device);
      REQUIRE(expected.count(d.device) == 1);
      CHECK(d.peak_allocated == expected[d.device].allocated);
      CHECK(d.peak_reserved == expected[d.device].reserved);
      CHECK(d.live_before_trace_bytes >= 0);
      // The blocks the trace saw allocated and not freed at the peak fit in the allocator's
      // total; the rest was allocated before the trace.
      std::int64_t tracked = 0;
      for (const auto& l : d.live_at_peak) tracked += l.bytes;
      CHECK(tracked <= d.peak_allocated);
      CHECK(d.live_before_trace_bytes == d.peak_allocated - tracked);
      if (d.gpu) CHECK_FALSE(d.live_at_peak.empty());
      ++devices_checked;
    }
    ++with_memory;
  }
  // The H100 and MI300X model traces and the vLLM capture traces carry allocator events.
  CHECK(with_memory >= 10);
  CHECK(devices_checked >= 15);
}
