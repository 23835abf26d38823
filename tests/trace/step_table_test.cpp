// The per-step table (step_table.hpp) and its report (steps_report.hpp), on small hand-written
// traces: where each step's time goes, warm-up, variation, queue depth, and bad input.
#include <catch2/catch.hpp>

#include <string>

#include "loupe/core/report/steps_report.hpp"
#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/json_reader.hpp"
#include "loupe/core/trace/step_table.hpp"
#include "loupe/queue_depth.hpp"
#include "trace_text.hpp"

namespace tr = loupe::core::trace;
using loupe::test::trace::wrap_events;

namespace {

std::string num(double v) { return std::to_string(v); }

// A GPU op [ts, ts + dur) µs on device `pid` launched by a 2 µs cudaLaunchKernel at `launch`
// on host thread 1 (no launch when launch < 0).
std::string gpu_op(const std::string& cat, const std::string& name, int corr, double ts, double dur,
                   double launch, int pid = 0) {
  const std::string c = std::to_string(corr);
  std::string e = R"({"ph":"X","cat":")" + cat + R"(","name":")" + name + R"(","pid":)" +
                  std::to_string(pid) + R"(,"tid":7,"ts":)" + num(ts) + R"(,"dur":)" + num(dur) +
                  R"(,"args":{"correlation":)" + c + R"(,"stream":7}})";
  if (launch < 0) return e;
  e += R"(,{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":)" +
       num(launch) + R"(,"dur":2,"args":{"correlation":)" + c + R"(}})";
  e += R"(,{"ph":"s","id":)" + c + R"(,"pid":1,"tid":1,"ts":)" + num(launch) +
       R"(,"cat":"ac2g","name":"ac2g"})";
  e += R"(,{"ph":"f","id":)" + c + R"(,"pid":)" + std::to_string(pid) + R"(,"tid":7,"ts":)" +
       num(ts) + R"(,"cat":"ac2g","name":"ac2g","bp":"e"})";
  return e;
}

std::string host(const std::string& cat, const std::string& name, double ts, double dur) {
  return R"({"ph":"X","cat":")" + cat + R"(","name":")" + name + R"(","pid":1,"tid":1,"ts":)" +
         num(ts) + R"(,"dur":)" + num(dur) + "}";
}

std::string step(int n, double ts, double dur) {
  return host("user_annotation", "ProfilerStep#" + std::to_string(n), ts, dur);
}

tr::StepTable table_of(const std::string& events) {
  const auto loaded = tr::load_trace_bytes(wrap_events(events));
  INFO((loaded.error ? loaded.error->describe() : std::string()));
  REQUIRE_FALSE(loaded.error);
  const auto tree = tr::EventTree::build(loaded.model);
  return tr::build_step_table(loaded.model, tree);
}

// Six ProfilerSteps of 200 (warm-up), 50, 50, 52, 50 and 90 µs. Step 2 holds two kernels and
// a memcpy: a queued gap of 5 µs and a host gap of 10 µs; step 3 a gap of 7 µs held by a
// synchronize call.
std::string six_steps() {
  return step(1, 0, 200) + "," + step(2, 200, 50) + "," + step(3, 250, 50) + "," +
         step(4, 300, 52) + "," + step(5, 352, 50) + "," + step(6, 402, 90) + "," +
         host("cpu_op", "aten::mm", 200.5, 6) + "," + host("cpu_op", "aten::add", 237, 4) + "," +
         gpu_op("kernel", "k_a", 1, 210, 10, 201) + "," + gpu_op("kernel", "k_b", 2, 225, 10, 204) +
         "," + gpu_op("kernel", "k_c", 3, 245, 3, 238) + "," +
         gpu_op("gpu_memcpy", "Memcpy HtoD (Pageable -> Device)", 4, 248, 2, 241) + "," +
         gpu_op("kernel", "k_d", 5, 255, 10, 251) + "," +
         host("cuda_runtime", "cudaDeviceSynchronize", 256, 10) + "," +
         gpu_op("kernel", "k_e", 6, 272, 8, 267);
}

}  // namespace

TEST_CASE("queue depth: launched-but-not-started ops over an interval", "[trace][steps]") {
  // Queued [3, 10), [6, 25), [40, 45), [43, 48); one op starting before its launch ended.
  const loupe::queue::DepthTimeline q({{3, 10}, {6, 25}, {40, 45}, {43, 48}, {50, 49}});
  const auto s = q.stats(10, 50);
  CHECK(s.span_ns == 40);
  CHECK(s.max == 2);
  CHECK(s.empty_ns == 17);  // [25, 40) and [48, 50)
  CHECK(s.mean == Approx(25.0 / 40.0));
  CHECK(q.stats(5, 5).span_ns == 0);
}

TEST_CASE("steps: time, GPU busy by class, idle by cause, host time, queue", "[trace][steps]") {
  const tr::StepTable t = table_of(six_steps());
  CHECK(t.source == tr::StepSource::kProfilerStep);
  REQUIRE(t.steps.size() == 6);
  CHECK(t.devices == 1);
  CHECK(t.problems.empty());
  CHECK(t.ops_outside_steps == 0);

  const tr::StepRow& s2 = t.steps[1];
  CHECK(s2.name == "ProfilerStep#2");
  CHECK(s2.step_ns() == 50'000);
  CHECK(s2.gpu_ops == 4);
  CHECK(s2.gpu_span_ns == 40'000);  // 210 .. 250
  CHECK(s2.busy_ns == 25'000);
  CHECK(s2.computation_ns == 23'000);
  CHECK(s2.memcpy_ns == 2'000);
  CHECK(s2.communication_ns == 0);
  CHECK(s2.idle.queued_ns == 5'000);  // k_b was launched before k_a ended
  CHECK(s2.idle.host_ns == 10'000);   // k_c was launched after k_b ended
  CHECK(s2.idle.sync_ns == 0);
  CHECK(s2.idle.total() == s2.gpu_span_ns - s2.busy_ns);
  CHECK(s2.host_ns == 10'000);  // aten::mm 6 µs + aten::add 4 µs
  CHECK(s2.queue_max == 2);
  CHECK(s2.queue_empty_ns == 17'000);
  CHECK(s2.queue_mean == Approx(25.0 / 40.0));

  const tr::StepRow& s3 = t.steps[2];
  CHECK(s3.gpu_ops == 2);
  CHECK(s3.idle.sync_ns == 7'000);  // the synchronize call overlaps the gap 265 .. 272
  CHECK(s3.idle.host_ns == 0);

  // Warm-up: the 200 µs first step (> 1.5 x the 51 µs median); the rest are steady.
  CHECK(t.steps[0].warmup);
  for (std::size_t i = 1; i < t.steps.size(); ++i) CHECK_FALSE(t.steps[i].warmup);

  // Variation: median 50 µs, MAD 0, so the threshold is 5 % of the median; only the 90 µs step
  // is slow (52 µs is within 2.5 µs).
  REQUIRE(t.variation);
  CHECK(t.variation->steady_steps == 5);
  CHECK(t.variation->median_ns == 50'000);
  CHECK(t.variation->spread_ns == 0);
  CHECK(t.variation->threshold_ns == 2'500);
  REQUIRE(t.variation->slow.size() == 1);
  CHECK(t.variation->slow[0] == 5);
  CHECK(t.variation->excess_ns == 40'000);

  // The document round-trips, and the report block states it in ms.
  const auto back = tr::step_table_from_json(tr::step_table_json(t));
  REQUIRE(back);
  REQUIRE(back->steps.size() == 6);
  CHECK(back->steps[1].idle.host_ns == 10'000);
  CHECK(back->steps[0].warmup);
  REQUIRE(back->variation);
  CHECK(back->variation->excess_ns == 40'000);
  const loupe::Json block = loupe::core::steps_report_block(*back);
  CHECK(block.find("count")->as_int() == 6);
  CHECK(block.find("warmup_steps")->as_int() == 1);
  const loupe::Json& agg = *block.find("aggregate");
  CHECK(agg.find("steps")->as_int() == 5);
  CHECK(agg.find("median_step_ms")->as_double() == Approx(0.05));
  CHECK(agg.find("max_step_ms")->as_double() == Approx(0.09));
  const loupe::Json& var = *block.find("variation");
  CHECK(var.find("significant")->as_bool());
  CHECK(var.find("excess_ms")->as_double() == Approx(0.04));
  REQUIRE(var.find("slow_steps")->size() == 1);
  CHECK(var.find("slow_steps")->as_array()[0].as_string() == "ProfilerStep#6");
  const std::string md = loupe::core::steps_report_markdown(block);
  CHECK(md.find("## Steps") == 0);
  CHECK(md.find("| ProfilerStep#1 (warm-up) | 0.200 |") != std::string::npos);
  CHECK(md.find("1 of 5 steady steps exceed the median (0.050 ms)") != std::string::npos);
  const std::string html = loupe::core::steps_report_html(block);
  CHECK(html.find("<section id=\"steps\">") == 0);
  CHECK(html.find("ProfilerStep#6") != std::string::npos);
}

TEST_CASE("steps: steady steps give no variation, too few give none at all", "[trace][steps]") {
  const tr::StepTable steady =
      table_of(step(1, 0, 50) + "," + step(2, 50, 51) + "," + step(3, 101, 50) + "," +
               step(4, 151, 49) + "," + gpu_op("kernel", "k", 1, 10, 5, 2));
  REQUIRE(steady.variation);
  CHECK_FALSE(steady.variation->significant());
  for (const auto& s : steady.steps) CHECK_FALSE(s.warmup);

  const tr::StepTable few =
      table_of(step(1, 0, 500) + "," + step(2, 500, 50) + "," + gpu_op("kernel", "k", 1, 10, 5, 2));
  CHECK_FALSE(few.variation);
  CHECK_FALSE(few.steps[0].warmup);  // two steps cannot tell a warm-up from a slow step
}

TEST_CASE("steps: bad input still gives a table, naming what was not used", "[trace][steps]") {
  // No step annotation at all.
  const tr::StepTable none = table_of(gpu_op("kernel", "k", 1, 10, 5, 2));
  CHECK(none.source == tr::StepSource::kNone);
  CHECK(none.steps.empty());
  const loupe::Json block = loupe::core::steps_report_block(none);
  CHECK(block.find("source")->as_string() == "none");
  CHECK(loupe::core::steps_report_markdown(block).find("no ProfilerStep annotation") !=
        std::string::npos);

  // A negative-duration step and GPU op, a kernel starting before its launch (clock skew), two
  // devices, an overlapping step.
  const tr::StepTable bad = table_of(
      step(1, 0, 100) + "," + step(2, 100, -5) + "," + step(3, 50, 100) + "," +
      gpu_op("kernel", "neg", 1, 20, -3, 5) + "," + gpu_op("kernel", "early", 2, 8, 4, 10) + "," +
      gpu_op("kernel", "dev0", 3, 30, 10, 20, 0) + "," +
      gpu_op("kernel", "dev2", 4, 30, 10, 21, 2));
  REQUIRE(bad.steps.size() == 1);
  CHECK(bad.steps[0].gpu_ops == 3);
  CHECK(bad.devices == 2);
  CHECK(bad.steps[0].gpu_span_ns == 32'000 + 10'000);  // device 0: 8 .. 40; device 2: 30 .. 40
  for (const auto& p : bad.problems) UNSCOPED_INFO(p);
  REQUIRE(bad.problems.size() == 5);
  const auto has = [&](const char* text) {
    for (const auto& p : bad.problems) {
      if (p.find(text) != std::string::npos) return true;
    }
    return false;
  };
  CHECK(has("1 step annotation(s) without a duration (negative or absent)"));
  CHECK(has("1 step annotation(s) overlapping the previous step"));
  CHECK(has("1 GPU op(s) without a duration (negative or absent)"));
  CHECK(has("1 GPU op(s) start before their launch call"));
  CHECK(has("2 devices"));
}
