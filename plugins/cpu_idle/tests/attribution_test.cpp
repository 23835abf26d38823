// The idle attribution on constructed traces: each gap's time split into launch-bound,
// synchronization and other (data loading, host work, queued wait, unlinked), in exact ns, via
// the real trace views (core/src/prepare/trace_views).
#include <catch2/catch.hpp>

#include <deque>
#include <string>

#include "analysis.hpp"
#include "findings_builder.hpp"
#include "gap_attribution.hpp"
#include "inline_trace.hpp"
#include "loupe/core/prepare/trace_views.hpp"
#include "loupe/core/trace/json_reader.hpp"
#include "loupe/core/util/json_convert.hpp"
#include "queue_evidence.hpp"
#include "recommendations.hpp"
#include "step_variation.hpp"
#include "trace_inputs.hpp"

namespace ci = loupe::cpu_idle;
namespace it = loupe::test::inline_trace;
namespace lp = loupe::core::prepare;
namespace lt = loupe::core::trace;

namespace {

ci::TextTable text_table(const loupe::core::CsvTable& t) {
  ci::TextTable out;
  for (size_t c = 0; c < t.column_count(); ++c) out.columns.emplace_back(t.column_name(c));
  for (size_t r = 0; r < t.row_count(); ++r) {
    std::vector<std::string> row;
    for (size_t c = 0; c < t.column_count(); ++c) row.emplace_back(t.cell(r, c).text);
    out.rows.push_back(std::move(row));
  }
  return out;
}

ci::TraceInputs inputs_of(const std::string& trace) {
  auto loaded = lt::load_trace_bytes(trace);
  REQUIRE_FALSE(loaded.error.has_value());
  const auto tree = lt::EventTree::build(loaded.model);
  const auto views = lp::build_trace_views(loaded.model, tree);
  // The inputs view the tables' cells, as the plugin's view the host's tables during analyze():
  // here the tables live until the test program ends.
  static std::deque<ci::TextTable> tables;
  const ci::TextTable& gpu = tables.emplace_back(text_table(*views.gpu_events));
  const ci::TextTable& calls = tables.emplace_back(text_table(*views.host_calls));
  return ci::read_trace_inputs(&gpu, &calls);
}

// aten::add at `ts - 1` launching `kernel` (call at ts, 2 µs) that runs [kts, kts + dur).
std::string op_launch(const std::string& kernel, int id, double ts, double kts, double dur) {
  return it::cpu_op("aten::add", ts - 1, 4, "\"External id\":" + std::to_string(id)) +
         it::launch(kernel, id, ts, kts, dur);
}

std::string event(const std::string& cat, const std::string& name, double ts, double dur) {
  return R"({"ph":"X","cat":")" + cat + R"(","name":")" + name + R"(","pid":1,"tid":1,"ts":)" +
         it::number(ts) + R"(,"dur":)" + it::number(dur) + "},";
}

// Five gaps with known causes (µs):
//  1 [20, 60)      K2 launched at 50: 40 launch-bound.
//  2 [70, 400)     .item() [80, 380) with a stream sync inside: 300 sync; 30 launch-bound.
//  3 [410, 3420)   K4 launched 3000 µs after the GPU went idle: 3000 host work, 10 launch-bound.
//  4 [3430, 5520)  DataLoader [3500, 5500): 2000 data loading, 80 host work, 10 launch-bound.
//  5 [5530, 5600)  K6 launched at 5540, its call ends 5542 (+20 latency): 32 launch-bound
//                  (10 before the call), 38 queued wait.
std::string constructed_trace() {
  std::string e;
  e += op_launch("k1", 1, 0, 10, 10);
  e += op_launch("k2", 2, 50, 60, 10);
  e += event("cpu_op", "aten::_local_scalar_dense", 80, 300);
  e += event("cuda_runtime", "cudaStreamSynchronize", 100, 270);
  e += op_launch("k3", 3, 390, 400, 10);
  e += op_launch("k4", 4, 3410, 3420, 10);
  e += event("user_annotation", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", 3500,
             2000);
  e += op_launch("k5", 5, 5510, 5520, 10);
  e += op_launch("k6", 6, 5540, 5600, 10);
  return it::trace_document(e);
}

constexpr int kData = static_cast<int>(ci::OtherReason::DataLoading);
constexpr int kHost = static_cast<int>(ci::OtherReason::HostWork);
constexpr int kQueued = static_cast<int>(ci::OtherReason::QueuedWait);
constexpr int kUnlinked = static_cast<int>(ci::OtherReason::Unlinked);

}  // namespace

TEST_CASE("cpu_idle splits each gap into launch-bound, sync and other time",
          "[cpu_idle][attribution]") {
  auto in = inputs_of(constructed_trace());
  REQUIRE(in.problem.empty());
  REQUIRE(in.ops.size() == 6);
  REQUIRE(in.calls.size() == 3);  // the scalar read, the stream sync, the DataLoader
  const ci::Breakdown b = ci::attribute_idle(std::move(in.ops), std::move(in.calls));
  REQUIRE(b.gaps.size() == 5);
  CHECK(b.span_ns == 5'600'000);
  CHECK(b.busy_ns == 60'000);
  CHECK(b.idle_ns == 5'540'000);

  const auto& g = b.gaps;
  CHECK(g[0].launch_bound_ns == 40'000);
  CHECK(g[0].sync_ns == 0);
  CHECK(g[0].dominant() == ci::IdleCause::LaunchBound);

  CHECK(g[1].sync_ns == 300'000);
  CHECK(g[1].launch_bound_ns == 30'000);
  CHECK(g[1].other_total_ns() == 0);
  REQUIRE(g[1].blocking != nullptr);
  CHECK(g[1].blocking->name == "aten::_local_scalar_dense");
  CHECK(g[1].dominant() == ci::IdleCause::Synchronization);

  CHECK(g[2].other_ns[kHost] == 3'000'000);
  CHECK(g[2].launch_bound_ns == 10'000);
  CHECK(g[2].dominant() == ci::IdleCause::Other);

  CHECK(g[3].other_ns[kData] == 2'000'000);
  CHECK(g[3].other_ns[kHost] == 80'000);
  CHECK(g[3].launch_bound_ns == 10'000);

  CHECK(g[4].launch_bound_ns == 32'000);
  CHECK(g[4].other_ns[kQueued] == 38'000);

  // Every gap's parts add up to its length.
  for (const auto& gap : g) {
    CHECK(gap.launch_bound_ns + gap.sync_ns + gap.other_total_ns() == gap.duration_ns());
  }
  CHECK(b.launch_bound_ns == 122'000);
  CHECK(b.sync_ns == 300'000);
  CHECK(b.other_ns[kHost] == 3'080'000);
  CHECK(b.other_ns[kData] == 2'000'000);
  CHECK(b.other_ns[kQueued] == 38'000);
  CHECK(b.other_ns[kUnlinked] == 0);
  REQUIRE(b.sync_sources.size() == 1);
  CHECK(b.sync_sources[0].idle_ns == 300'000);
  CHECK(b.eager_launches == 6);
  CHECK(b.graph_launches == 0);

  // Candidates: host work 3.08 ms, data loading 2.0 ms, sync 0.3 ms, launch 0.122 ms,
  // queued 0.038 ms; a card needs 1% of the 5.6 ms span (0.056 ms).
  const auto cands = ci::candidates(b);
  REQUIRE(cands.size() == 5);
  CHECK(cands[0].mechanism == ci::Mechanism::HostWork);
  CHECK(cands[0].high_ms == Approx(3.08).margin(1e-12));
  CHECK(cands[0].mid_ms == Approx(2.31).margin(1e-12));
  CHECK(cands[0].low_ms == Approx(1.54).margin(1e-12));
  CHECK(cands[0].gaps == 1);
  CHECK(cands[1].mechanism == ci::Mechanism::DataLoading);
  CHECK(cands[2].mechanism == ci::Mechanism::Synchronization);
  CHECK(cands[2].high_ms == Approx(0.3).margin(1e-12));
  CHECK(cands[3].mechanism == ci::Mechanism::LaunchBound);
  CHECK(cands[3].gaps == 1);  // gap 1 (gap 5 is mostly queued wait)
  CHECK(cands[3].reported);
  CHECK(cands[4].mechanism == ci::Mechanism::QueuedWait);
  CHECK(cands[4].gaps == 1);
  CHECK_FALSE(cands[4].reported);                                      // 0.038 ms < 1% of the span
  CHECK(loupe::dump_python_json(cands[2].impact_high, -1) == "5.36");  // 0.3 / 5.6
  // No saving exceeds the measured idle.
  double saved = 0;
  for (const auto& c : cands) saved += c.high_ms;
  CHECK(saved == Approx(5.54).margin(1e-9));
}

TEST_CASE("cpu_idle attribution without host launches or without GPU ops",
          "[cpu_idle][attribution]") {
  SECTION("GPU ops with no host events are unlinked idle time") {
    std::string e;
    e +=
        R"({"ph":"X","cat":"kernel","name":"a","pid":0,"tid":7,"ts":0.0,"dur":5.0,"args":{"stream":7}},)";
    e +=
        R"({"ph":"X","cat":"kernel","name":"b","pid":0,"tid":7,"ts":25.0,"dur":5.0,"args":{"stream":7}},)";
    auto in = inputs_of(it::trace_document(e));
    const ci::Breakdown b = ci::attribute_idle(std::move(in.ops), std::move(in.calls));
    REQUIRE(b.gaps.size() == 1);
    CHECK(b.other_ns[kUnlinked] == 20'000);
    CHECK(b.launch_bound_ns == 0);
    CHECK(ci::candidates(b).empty());  // unlinked time names no mechanism: no card
  }
  SECTION("a short gap between queued ops is the device switching, not a dependency") {
    // k2 is launched before k1 runs; the 5 µs between them: 3 µs launch call + latency
    // (the call ends at 3, + 20 µs = 23), then 2 µs of device switch.
    std::string e = op_launch("k1", 1, 0, 10, 10) + op_launch("k2", 2, 1, 25, 10);
    auto in = inputs_of(it::trace_document(e));
    const ci::Breakdown b = ci::attribute_idle(std::move(in.ops), std::move(in.calls));
    REQUIRE(b.gaps.size() == 1);
    CHECK(b.launch_bound_ns == 3'000);
    CHECK(b.other_ns[static_cast<int>(ci::OtherReason::DeviceSwitch)] == 2'000);
    CHECK(b.other_ns[kQueued] == 0);
    const auto cands = ci::candidates(b);
    REQUIRE(cands.size() == 1);  // the device switch names no mechanism
    CHECK(cands[0].mechanism == ci::Mechanism::LaunchBound);
  }
  SECTION("a gap between long-queued ops is labelled device switch, not unlinked") {
    // k2's launch returned at 3, more than 20 µs before k1 ends at 30: all 5 µs are the
    // device's switch, and a launch is present, so the gap is no "unlinked" one.
    std::string e = op_launch("k1", 1, 0, 10, 20) + op_launch("k2", 2, 1, 35, 10);
    auto in = inputs_of(it::trace_document(e));
    const ci::Breakdown b = ci::attribute_idle(std::move(in.ops), std::move(in.calls));
    REQUIRE(b.gaps.size() == 1);
    CHECK(b.launch_bound_ns == 0);
    CHECK(b.other_ns[static_cast<int>(ci::OtherReason::DeviceSwitch)] == 5'000);
    CHECK(ci::candidates(b).empty());
    CHECK(ci::gap_label(b.gaps[0]) == "device_switch");
  }
  SECTION("a launch ending inside the gap: its call and latency are launch overhead") {
    // k2's call runs [19, 21) while k1 ends at 20; issued at 41, k2 starts at 45: the call and
    // its latency (20 to 41) are launch-bound; the 4 µs after it, in a gap longer than 10 µs,
    // queued wait.
    std::string e = op_launch("k1", 1, 0, 10, 10) + op_launch("k2", 2, 19, 45, 10);
    auto in = inputs_of(it::trace_document(e));
    const ci::Breakdown b = ci::attribute_idle(std::move(in.ops), std::move(in.calls));
    REQUIRE(b.gaps.size() == 1);
    CHECK(b.launch_bound_ns == 21'000);
    CHECK(b.other_ns[kQueued] == 4'000);
    CHECK(b.sync_ns == 0);
  }
  SECTION("a sync call while pre-recorded work drains is not synchronization") {
    // k0 and k1 have no recorded launch (queued before the profiler started); the host sits in
    // a device synchronize meanwhile. The 3 µs between them is outside what the trace can
    // explain (unlinked), not the synchronize's doing.
    std::string e;
    e +=
        R"({"ph":"X","cat":"kernel","name":"k0","pid":0,"tid":7,"ts":0.0,"dur":5.0,"args":{"stream":7}},)";
    e +=
        R"({"ph":"X","cat":"kernel","name":"k1","pid":0,"tid":7,"ts":8.0,"dur":5.0,"args":{"stream":7}},)";
    e += event("cuda_runtime", "cudaDeviceSynchronize", 0, 20);
    auto in = inputs_of(it::trace_document(e));
    const ci::Breakdown b = ci::attribute_idle(std::move(in.ops), std::move(in.calls));
    REQUIRE(b.gaps.size() == 1);
    CHECK(b.sync_ns == 0);
    CHECK(b.other_ns[kUnlinked] == 3'000);
    CHECK(ci::gap_label(b.gaps[0]) == "unlinked");
    CHECK(ci::candidates(b).empty());
  }
  SECTION("a blocking call after the next op was issued is queued wait, not synchronization") {
    // k2 is launched at 20 (call ends at 22, issued at 42) but runs only at 500: its stream
    // waits on something else. The host enters a synchronous copy at 100 and leaves at 490.
    // Gap [20, 500): 22 launch-bound (the call and its latency), 458 queued wait, no sync.
    std::string e = op_launch("k1", 1, 0, 10, 10) + op_launch("k2", 2, 20, 500, 10);
    e += event("cuda_runtime", "hipMemcpyWithStream", 100, 390);
    e += event("cuda_runtime", "hipStreamWaitEvent", 15, 1);  // the stream waits from here
    auto in = inputs_of(it::trace_document(e));
    const ci::Breakdown b = ci::attribute_idle(std::move(in.ops), std::move(in.calls));
    REQUIRE(b.gaps.size() == 1);
    CHECK(b.sync_ns == 0);
    CHECK(b.gaps[0].blocking == nullptr);
    REQUIRE(b.gaps[0].stream_wait != nullptr);  // issued 5 us before the launch
    CHECK(b.gaps[0].stream_wait->name == "hipStreamWaitEvent");
    CHECK(b.launch_bound_ns == 22'000);
    CHECK(b.other_ns[kQueued] == 458'000);
    CHECK(b.gaps[0].dominant() == ci::IdleCause::Other);
  }
  SECTION("a trace with no GPU ops has no gaps") {
    auto in = inputs_of(it::trace_document(event("cpu_op", "aten::add", 0, 5)));
    CHECK(in.present);
    const ci::Breakdown b = ci::attribute_idle(std::move(in.ops), std::move(in.calls));
    CHECK(b.gaps.empty());
    CHECK(b.idle_ns == 0);
    CHECK(ci::candidates(b).empty());
  }
}

TEST_CASE("cpu_idle rejects a gpu_events view without the launcher columns",
          "[cpu_idle][attribution]") {
  ci::TextTable old;
  old.columns = {"uid", "kind", "name", "device", "ts_ns", "dur_ns"};
  const auto in = ci::read_trace_inputs(&old, nullptr);
  CHECK(in.present);
  CHECK(in.problem == "trace/gpu_events.csv: no column 'launcher_name'");
}

TEST_CASE("cpu_idle cards: one per mechanism above 1% of the span, savings from the measurement",
          "[cpu_idle][findings]") {
  auto in = inputs_of(constructed_trace());
  const ci::Breakdown b = ci::attribute_idle(std::move(in.ops), std::move(in.calls));
  const auto cands = ci::candidates(b);
  ci::Utilization u;
  u.timeline_file = "perf_report_csvs/gpu_timeline.csv";
  u.total_time_ms = loupe::Json(5.6);
  u.idle_time_ms = loupe::Json(5.54);
  u.idle_percent = loupe::Json(98.93);
  u.computation_percent = loupe::Json(1.07);
  u.communication_percent = loupe::Json(0);
  u.memcpy_percent = loupe::Json(0);
  u.idle_flagged = true;
  ci::FindingsInput fin;
  fin.utilization = &u;
  fin.breakdown = &b;
  fin.candidates = &cands;

  const auto doc = ci::build_findings(fin);
  REQUIRE(doc.recommendations.size() == 4);  // queued wait (0.038 ms) stays below the gate
  CHECK(doc.recommendations[0].title == "Host work before the next launch leaves the GPU idle");
  CHECK(doc.recommendations[1].title == "Data loading between steps leaves the GPU idle");
  CHECK(doc.recommendations[2].title == "Blocking host synchronization leaves the GPU idle");
  CHECK(doc.recommendations[3].title ==
        "Kernel launch overhead leaves the GPU idle between kernels");
  REQUIRE(doc.recommendations[2].impact.has_value());
  // 0.3 ms of sync in a 5.6 ms span: high 5.36, mid 75% = 4.02, low 50% = 2.68.
  CHECK(loupe::dump_python_json(doc.recommendations[2].impact->high, -1) == "5.36");
  CHECK(loupe::dump_python_json(doc.recommendations[2].impact->mid, -1) == "4.02");
  CHECK(loupe::dump_python_json(doc.recommendations[2].impact->low, -1) == "2.68");
  CHECK(doc.recommendations[2].action.find("`tensor.item()`") != std::string::npos);
  CHECK(doc.recommendations[3].action.find("mode=\"reduce-overhead\"") != std::string::npos);
  CHECK(doc.details.size() == doc.recommendations.size());

  fin.compat = true;  // TraceLens's system tier: the same cards, impact not quantified
  const auto compat = ci::build_findings(fin);
  REQUIRE(compat.recommendations.size() == 4);
  for (const auto& r : compat.recommendations) CHECK_FALSE(r.impact.has_value());

  u.idle_flagged = false;  // compat at or below 15%: TraceLens's "acceptable range" card
  const auto calm = ci::build_findings(fin);
  REQUIRE(calm.recommendations.size() == 1);
  CHECK(calm.recommendations[0].title == "GPU idle time is within the acceptable range");
}

TEST_CASE("cpu_idle analyzes the recording window only", "[cpu_idle][attribution]") {
  // Two kernels with no recorded launch before the window (the first recorded launch's kernel
  // starts at 100), then two launched ones.
  std::string e;
  e +=
      R"({"ph":"X","cat":"kernel","name":"pre_a","pid":0,"tid":7,"ts":0.0,"dur":10.0,"args":{"stream":7}},)";
  e +=
      R"({"ph":"X","cat":"kernel","name":"pre_b","pid":0,"tid":7,"ts":12.0,"dur":6.0,"args":{"stream":7}},)";
  e += op_launch("k1", 1, 90, 100, 20) + op_launch("k2", 2, 140, 150, 30);
  auto in = inputs_of(it::trace_document(e));
  REQUIRE(in.ops.size() == 4);
  ci::RecordingWindow w;
  w.start_ns = 100'000;
  w.end_ns = 180'000;
  w.before.ops = 2;
  w.before.busy_ns = 16'000;
  w.before.first_ns = 0;
  in.window = w;
  ci::keep_window(in);
  REQUIRE(in.ops.size() == 2);
  const ci::Breakdown b = ci::attribute_idle(std::move(in.ops), std::move(in.calls));
  CHECK(b.span_ns == 80'000);  // the window, not 0 .. 180
  CHECK(b.idle_ns == 30'000);
  CHECK(b.other_ns[kUnlinked] == 0);
  const auto outside = ci::outside_window_json(w);
  CHECK(outside.find("window_ms")->as_double() == 0.08);
  CHECK(outside.find("before")->find("span_ms")->as_double() == 0.1);
  CHECK(outside.find("before")->find("busy_ms")->as_double() == 0.016);
  CHECK(outside.find("after")->find("ops")->as_int() == 0);
}

TEST_CASE("cpu_idle: the launch queue is evidence in the idle cards", "[cpu_idle][findings]") {
  auto in = inputs_of(constructed_trace());
  const ci::Breakdown b = ci::attribute_idle(std::move(in.ops), std::move(in.calls));
  // Each op waits from the end of its 2 µs launch call to its start: k2..k5 8 µs each, k6 58 µs
  // inside the 5.6 ms span (k1's wait ends when the span starts); never two at once.
  const ci::QueueEvidence q = ci::queue_evidence(b);
  CHECK(q.evaluated);
  CHECK(q.span_ns == 5'600'000);
  CHECK(q.empty_ns == 5'510'000);
  CHECK(q.max_depth == 1);
  CHECK(q.mean_depth == Approx(90.0 / 5600.0));
  CHECK(q.idle_ns == 5'540'000);
  CHECK(q.idle_queued_ns == 90'000);
  const auto json = ci::queue_evidence_json(q);
  CHECK(json.find("empty_percent_of_span")->as_double() == 98.4);
  CHECK(json.find("queued_percent_of_idle")->as_double() == 1.6);

  const auto cands = ci::candidates(b);
  ci::Utilization u;
  u.total_time_ms = loupe::Json(5.6);
  u.idle_time_ms = loupe::Json(5.54);
  u.idle_percent = loupe::Json(98.93);
  u.idle_flagged = true;
  ci::FindingsInput fin;
  fin.utilization = &u;
  fin.breakdown = &b;
  fin.candidates = &cands;
  fin.queue = &q;
  const auto doc = ci::build_findings(fin);
  REQUIRE(doc.recommendations.size() == 4);
  CHECK_THAT(doc.recommendations[3].insight,
             Catch::Contains("The launch queue (ops launched but not started) was empty for "
                             "98.4% of the GPU span (mean depth 0.02)"));
}

TEST_CASE("cpu_idle: a step slower than the noise is a finding, steady steps are not",
          "[cpu_idle][findings]") {
  // Five ProfilerSteps: a 300 µs warm-up, three of 100 µs and one of 160 µs, one kernel each.
  const auto steps_doc = [](double last) {
    std::string e;
    const double starts[] = {0, 300, 400, 500, 600};
    const double durs[] = {300, 100, 100, 100, last};
    for (int i = 0; i < 5; ++i) {
      e += event("user_annotation", "ProfilerStep#" + std::to_string(i + 1), starts[i], durs[i]);
      e += op_launch("k" + std::to_string(i), i + 1, starts[i] + 10, starts[i] + 20, 30);
    }
    auto loaded = lt::load_trace_bytes(it::trace_document(e));
    REQUIRE_FALSE(loaded.error.has_value());
    const auto tree = lt::EventTree::build(loaded.model);
    const auto views = lp::build_trace_views(loaded.model, tree);
    REQUIRE(views.steps);
    return loupe::core::to_owned_json(*views.steps);
  };
  const auto v = ci::read_step_variation(steps_doc(160));
  REQUIRE(v);
  CHECK(v->steady_steps == 4);
  CHECK(v->median_ns == 100'000);
  CHECK(v->threshold_ns == 5'000);
  REQUIRE(v->slow.size() == 1);
  CHECK(v->slow[0].name == "ProfilerStep#5");
  CHECK(v->excess_ns == 60'000);
  const auto [rec, detail] = ci::step_variation_card(*v, 1'000'000);
  CHECK(rec.title == "Step time varies: 1 of 4 steps run longer than the median step");
  REQUIRE(rec.evidence);
  CHECK(*rec.evidence == loupe::findings::Evidence::Measured);
  REQUIRE(rec.saving_ms);
  CHECK(rec.saving_ms->high == Approx(0.06));
  CHECK(rec.saving_ms->mid == Approx(0.045));
  CHECK(rec.saving_ms->low == Approx(0.03));
  REQUIRE(rec.impact);
  CHECK(loupe::dump_python_json(rec.impact->high, -1) == "6.0");
  CHECK_THAT(rec.insight, Catch::Contains("the slowest, ProfilerStep#5, takes 0.160 ms"));
  REQUIRE(detail.data.size() == 1);

  // 104 µs is within 5 % of the median: no finding.
  CHECK_FALSE(ci::read_step_variation(steps_doc(104)));
}
