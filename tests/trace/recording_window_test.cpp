// The recording window (recording_window.hpp): the span of the GPU ops linked to a recorded
// launch, and the GPU work before and after it, on small hand-written traces.
#include <catch2/catch.hpp>

#include <string>

#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/json_reader.hpp"
#include "loupe/core/trace/recording_window.hpp"
#include "trace_text.hpp"

namespace tr = loupe::core::trace;
using loupe::test::trace::wrap_events;

namespace {

// A kernel [ts, ts + dur) µs with correlation `corr`; `launched` adds its launch and flows.
std::string kernel(const std::string& name, int corr, double ts, double dur, bool launched) {
  const std::string c = std::to_string(corr);
  std::string e = R"({"ph":"X","cat":"kernel","name":")" + name + R"(","pid":0,"tid":7,"ts":)" +
                  std::to_string(ts) + R"(,"dur":)" + std::to_string(dur) +
                  R"(,"args":{"correlation":)" + c + R"(,"stream":7}})";
  if (!launched) return e;
  const std::string launch_ts = std::to_string(ts - 5);
  e += R"(,{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":)" +
       launch_ts + R"(,"dur":2,"args":{"correlation":)" + c + R"(}})";
  e += R"(,{"ph":"s","id":)" + c + R"(,"pid":1,"tid":1,"ts":)" + launch_ts +
       R"(,"cat":"ac2g","name":"ac2g"})";
  e += R"(,{"ph":"f","id":)" + c + R"(,"pid":0,"tid":7,"ts":)" + std::to_string(ts) +
       R"(,"cat":"ac2g","name":"ac2g","bp":"e"})";
  return e;
}

tr::RecordingWindow window_of(const std::string& text) {
  const auto loaded = tr::load_trace_bytes(text);
  INFO((loaded.error ? loaded.error->describe() : std::string()));
  REQUIRE_FALSE(loaded.error);
  const auto tree = tr::EventTree::build(loaded.model);
  const auto w = tr::find_recording_window(loaded.model, tree);
  REQUIRE(w);
  return *w;
}

}  // namespace

TEST_CASE("work launched before and after the recorded launches is outside the window",
          "[trace][window]") {
  // Two queued kernels (correlations 3, 4) before the first recorded launch (10), two linked
  // kernels, one unlinked kernel between them, one after the last recorded launch (12).
  const std::string events =
      kernel("pre_a", 3, 0, 10, false) + "," + kernel("pre_b", 4, 12, 6, false) + "," +
      kernel("k1", 10, 100, 20, true) + "," + kernel("gap", 2, 130, 5, false) + "," +
      kernel("k2", 11, 150, 30, true) + "," + kernel("post", 12, 200, 10, false);
  const auto w = window_of(wrap_events(events));
  CHECK_FALSE(w.gpu_only);
  CHECK(w.start_ns == 100'000);
  CHECK(w.end_ns == 180'000);
  CHECK(w.duration_ns() == 80'000);
  CHECK(w.ops_inside == 3);
  CHECK(w.unlinked_inside == 1);
  CHECK(w.before.ops == 2);
  CHECK(w.before.busy_ns == 16'000);
  CHECK(w.before.first_ns == 0);
  CHECK(w.before.last_end_ns == 18'000);
  CHECK(w.before.correlation_evidence == 2);  // 3 and 4 precede 10
  CHECK(w.after.ops == 1);
  CHECK(w.after.busy_ns == 10'000);
  CHECK(w.after.correlation_evidence == 1);  // 12 follows 11
  CHECK(w.ops_at_trace_start == 1);          // pre_a starts at the trace's first instant
  CHECK(w.work_outside());
  CHECK(w.capture_begins == 0);
  CHECK(w.graph_launches == 0);
  CHECK(w.step_labels == 0);

  // The document round-trips.
  const auto back = tr::recording_window_from_json(tr::recording_window_json(w));
  REQUIRE(back);
  CHECK(back->start_ns == w.start_ns);
  CHECK(back->end_ns == w.end_ns);
  CHECK(back->before.ops == 2);
  CHECK(back->before.correlation_evidence == 2);
  CHECK(back->after.last_end_ns == 210'000);
  CHECK(back->unlinked_inside == 1);
}

TEST_CASE("a fully recorded trace has nothing outside; a GPU-only trace is all window",
          "[trace][window]") {
  const auto full =
      window_of(wrap_events(kernel("k1", 1, 100, 20, true) + "," + kernel("k2", 2, 150, 30, true)));
  CHECK_FALSE(full.work_outside());
  CHECK(full.ops_inside == 2);
  CHECK(full.start_ns == 100'000);
  CHECK(full.end_ns == 180'000);
  CHECK(full.ops_at_trace_start == 0);  // the first launch (at 95) precedes every kernel

  const auto gpu_only =
      window_of(wrap_events(kernel("a", 1, 0, 10, false) + "," + kernel("b", 2, 50, 10, false)));
  CHECK(gpu_only.gpu_only);
  CHECK(gpu_only.start_ns == 0);
  CHECK(gpu_only.end_ns == 60'000);
  CHECK(gpu_only.ops_inside == 2);
  CHECK_FALSE(gpu_only.work_outside());

  const auto loaded = tr::load_trace_bytes(
      wrap_events(R"({"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":1,"dur":5})"));
  REQUIRE_FALSE(loaded.error);
  CHECK_FALSE(tr::find_recording_window(loaded.model, tr::EventTree::build(loaded.model)));
  CHECK_FALSE(tr::recording_window_from_json(loupe::Json::object()));
}

TEST_CASE("capture calls, graph launches and step labels are counted", "[trace][window]") {
  const std::string events =
      kernel("k1", 1, 100, 20, true) + "," +
      R"({"ph":"X","cat":"cuda_runtime","name":"cudaStreamBeginCapture","pid":1,"tid":1,"ts":200,"dur":5},)"
      R"({"ph":"X","cat":"cuda_runtime","name":"cudaStreamEndCapture","pid":1,"tid":1,"ts":300,"dur":5},)"
      R"({"ph":"X","cat":"cuda_runtime","name":"cudaGraphInstantiate","pid":1,"tid":1,"ts":310,"dur":90},)"
      R"({"ph":"X","cat":"cuda_runtime","name":"cudaGraphLaunch","pid":1,"tid":1,"ts":500,"dur":5},)"
      R"({"ph":"X","cat":"user_annotation","name":"step[DECODE bs=64]","pid":1,"tid":1,"ts":90,"dur":500})";
  const auto w = window_of(wrap_events(events));
  CHECK(w.capture_begins == 1);
  CHECK(w.graph_instantiations == 1);
  CHECK(w.graph_launches == 1);
  CHECK(w.capture_ns == 200'000);  // 200 .. 400 µs
  CHECK(w.step_labels == 1);
  const auto back = tr::recording_window_from_json(tr::recording_window_json(w));
  REQUIRE(back);
  CHECK(back->capture_ns == 200'000);
  CHECK(back->graph_launches == 1);
  CHECK(back->step_labels == 1);
}
