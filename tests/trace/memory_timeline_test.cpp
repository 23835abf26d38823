// The allocator's memory timeline (memory_timeline.hpp) and its report (memory_report.hpp) on
// small hand-written traces: peaks equal to the allocator's totals, what was live at the peak by
// op, churn per step, findings where the numbers call for them, and events that cannot be used.
#include <catch2/catch.hpp>

#include <memory>
#include <string>

#include "loupe/core/report/memory_report.hpp"
#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/json_reader.hpp"
#include "loupe/core/trace/memory_timeline.hpp"
#include "loupe/core/trace/step_table.hpp"
#include "trace_text.hpp"

namespace tr = loupe::core::trace;

namespace {

// A [memory] event at `ts` µs on host thread 1: `bytes` at `addr`, then the totals.
std::string mem(double ts, long long addr, long long bytes, long long allocated, long long reserved,
                const std::string& device = R"("Device Id":0,"Device Type":1)") {
  return R"({"ph":"i","cat":"cpu_instant_event","s":"t","name":"[memory]","pid":1,"tid":1,"ts":)" +
         std::to_string(ts) + R"(,"args":{"Addr":)" + std::to_string(addr) + R"(,"Bytes":)" +
         std::to_string(bytes) + R"(,"Total Allocated":)" + std::to_string(allocated) +
         R"(,"Total Reserved":)" + std::to_string(reserved) +
         (device.empty() ? std::string() : "," + device) + "}}";
}

std::string op(const std::string& name, double ts, double dur) {
  return R"({"ph":"X","cat":"cpu_op","name":")" + name + R"(","pid":1,"tid":1,"ts":)" +
         std::to_string(ts) + R"(,"dur":)" + std::to_string(dur) + "}";
}

std::string profiler_step(int n, double ts, double dur) {
  return R"({"ph":"X","cat":"user_annotation","name":"ProfilerStep#)" + std::to_string(n) +
         R"(","pid":1,"tid":1,"ts":)" + std::to_string(ts) + R"(,"dur":)" + std::to_string(dur) +
         "}";
}

// The timeline names ops by views into the trace model, so the model lives as long as it.
struct LoadedTimeline {
  std::unique_ptr<tr::LoadResult> loaded;
  tr::MemoryTimeline timeline;
};

LoadedTimeline timeline_of(const std::string& text) {
  auto loaded = std::make_unique<tr::LoadResult>(tr::load_trace_bytes(text));
  INFO((loaded->error ? loaded->error->describe() : std::string()));
  REQUIRE_FALSE(loaded->error);
  const auto tree = tr::EventTree::build(loaded->model);
  const auto steps = tr::build_step_table(loaded->model, tree);
  tr::MemoryTimeline timeline = tr::build_memory_timeline(loaded->model, tree, steps);
  return {std::move(loaded), std::move(timeline)};
}

// 1 GiB of device memory (deviceProperties); 100 MiB already allocated before the trace. Step 1
// [0, 100): aten::linear allocates 600 MiB at 10 (reserved grows to 800 MiB), aten::relu 200 MiB
// at 30 (the peak: 900 MiB), frees the 600 MiB at 50; step 2 [100, 200): aten::mm allocates
// 300 MiB at 120 and the reserved total rises to 1000 MiB (> 90 % of the device). One event
// names no device, one has no totals.
std::string memory_trace() {
  constexpr long long M = 1024 * 1024;
  std::string e =
      profiler_step(1, 0, 100) + "," + profiler_step(2, 100, 100) + "," +
      op("aten::linear", 5, 10) + "," + op("aten::relu", 25, 10) + "," + op("aten::mm", 115, 10) +
      "," + mem(10, 0xA000, 600 * M, 700 * M, 800 * M) + "," +
      mem(30, 0xB000, 200 * M, 900 * M, 800 * M) + "," +
      mem(50, 0xA000, -600 * M, 300 * M, 800 * M) + "," +
      mem(120, 0xC000, 300 * M, 600 * M, 1000 * M) + "," +
      mem(130, 0xD000, 8, 600 * M, 1000 * M, "") + "," +
      R"({"ph":"i","cat":"cpu_instant_event","s":"t","name":"[memory]","pid":1,"tid":1,"ts":140,"args":{"Addr":1,"Bytes":4,"Device Id":0,"Device Type":1}})" +
      "," + mem(150, 0xE000, 4096, 4096, 0, R"("Device Id":-1,"Device Type":0)");
  return R"({"deviceProperties":[{"id":0,"name":"Test GPU","totalGlobalMem":1073741824}],)"
         R"("traceEvents":[)" +
         e + "]}";
}

}  // namespace

TEST_CASE("memory timeline: peaks, live at the peak by op, per-step churn", "[trace][memory]") {
  constexpr long long M = 1024 * 1024;
  const LoadedTimeline built = timeline_of(memory_trace());
  const tr::MemoryTimeline& t = built.timeline;
  CHECK(t.events == 7);
  CHECK(t.without_device == 1);
  CHECK(t.without_totals == 1);
  REQUIRE(t.devices.size() == 2);
  const tr::DeviceMemory& gpu = t.devices[0];
  CHECK(gpu.device == "cuda:0");
  CHECK(gpu.gpu);
  CHECK(gpu.capacity_bytes == 1073741824);
  REQUIRE(gpu.samples.size() == 4);
  CHECK(gpu.peak_allocated == 900 * M);  // the allocator's own total at 30 µs
  CHECK(gpu.peak_allocated_ts_ns == 30'000);
  CHECK(gpu.peak_reserved == 1000 * M);
  CHECK(gpu.allocations == 3);
  CHECK(gpu.frees == 1);
  CHECK(gpu.allocated_bytes == 1100 * M);
  CHECK(gpu.reserved_changes == 1);
  // Live at the peak: linear's 600 MiB and relu's 200 MiB; 100 MiB predates the trace.
  REQUIRE(gpu.live_at_peak.size() == 2);
  CHECK(gpu.live_at_peak[0].op == "aten::linear");
  CHECK(gpu.live_at_peak[0].bytes == 600 * M);
  CHECK(gpu.live_at_peak[1].op == "aten::relu");
  CHECK(gpu.live_before_trace_bytes == 100 * M);
  REQUIRE(gpu.steps.size() == 2);
  CHECK(gpu.steps[0].allocations == 2);
  CHECK(gpu.steps[0].frees == 1);
  CHECK(gpu.steps[0].reserved_changes == 0);
  CHECK(gpu.steps[0].peak_allocated == 900 * M);
  CHECK(gpu.steps[1].allocations == 1);
  CHECK(gpu.steps[1].reserved_changes == 1);  // 800 -> 1000 MiB inside step 2
  CHECK(t.devices[1].device == "cpu");
  CHECK_FALSE(t.devices[1].gpu);

  const std::string csv = tr::memory_timeline_csv(t);
  CHECK(csv.rfind("device,ts_ns,allocated_bytes,reserved_bytes,bytes,op\n", 0) == 0);
  CHECK(csv.find("cuda:0,30000,943718400,838860800,209715200,aten::relu\n") != std::string::npos);

  // The report: both findings, the section and the plot.
  const loupe::Json block = loupe::core::memory_report_block(tr::memory_timeline_json(t), 0.0);
  const loupe::Json& dev = block.find("devices")->as_array()[0];
  CHECK(dev.find("peak_allocated_bytes")->as_int() == 900 * M);
  CHECK(dev.find("capacity_source")->as_string() == "trace");
  CHECK(dev.find("peak_reserved_percent_of_capacity")->as_double() == 97.7);
  const auto& findings = block.find("findings")->as_array();
  REQUIRE(findings.size() == 2);
  CHECK(findings[0].find("rule")->as_string() == "near_capacity");
  CHECK(findings[1].find("rule")->as_string() == "allocator_churn");
  CHECK_THAT(findings[1].find("title")->as_string(),
             Catch::Contains("inside 1 of 2 steady step(s)"));
  REQUIRE(block.find("not_used")->size() == 2);
  const std::string md = loupe::core::memory_report_markdown(block);
  CHECK_THAT(md, Catch::Contains("| cuda:0 | 0.879 | 0.020 | 0.977 | 97.7% | 3 | 1 |") &&
                     Catch::Contains("| aten::linear | 0.586 | 1 |"));
  const std::string html = loupe::core::memory_report_html(block);
  CHECK_THAT(html, Catch::Contains("<section id=\"memory\">") && Catch::Contains("<polyline"));
}

TEST_CASE("memory timeline: a trace without allocator events says so", "[trace][memory]") {
  const LoadedTimeline built = timeline_of(loupe::test::trace::small_trace());
  const tr::MemoryTimeline& t = built.timeline;
  CHECK(t.empty());
  CHECK(t.devices.empty());
  const loupe::Json block = loupe::core::memory_report_block(tr::memory_timeline_json(t), 80.0);
  CHECK(block.find("allocator_events")->as_int() == 0);
  CHECK_THAT(block.find("note")->as_string(), Catch::Contains("no allocator events"));
  CHECK_THAT(loupe::core::memory_report_markdown(block),
             Catch::Contains("The trace has no allocator events"));
}

TEST_CASE("memory timeline: the platform's memory stands in for a trace without it",
          "[trace][memory]") {
  constexpr long long G = 1024LL * 1024 * 1024;
  const std::string text = loupe::test::trace::wrap_events(mem(10, 1, G, 70 * G, 75 * G));
  const LoadedTimeline built = timeline_of(text);
  const tr::MemoryTimeline& t = built.timeline;
  REQUIRE(t.devices.size() == 1);
  CHECK(t.devices[0].capacity_bytes == 0);
  CHECK(t.devices[0].live_before_trace_bytes == 69 * G);
  const loupe::Json block = loupe::core::memory_report_block(tr::memory_timeline_json(t), 80.0);
  const loupe::Json& dev = block.find("devices")->as_array()[0];
  CHECK(dev.find("capacity_source")->as_string() == "platform");
  CHECK(dev.find("peak_reserved_percent_of_capacity")->as_double() == 93.8);
  REQUIRE(block.find("findings")->size() == 1);
  // Without the platform's memory there is nothing to compare against: no finding.
  const loupe::Json unknown = loupe::core::memory_report_block(tr::memory_timeline_json(t), 0.0);
  CHECK(unknown.find("findings")->size() == 0);
}
