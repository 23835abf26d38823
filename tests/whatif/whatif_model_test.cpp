// The what-if model on small hand-written traces whose answer is known by hand
// (docs/what-if.md): identity reproduces every step, and changed kernels move the step only as
// far as the launches, streams, events and syncs allow.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/json_reader.hpp"
#include "loupe/core/whatif/run_graph.hpp"
#include "loupe/core/whatif/simulate.hpp"
#include "whatif_trace.hpp"

namespace {

namespace tr = loupe::core::trace;
namespace wi = loupe::core::whatif;
using loupe::test::whatif_trace::TraceText;

wi::RunGraph graph_of(const TraceText& trace) {
  auto loaded = tr::load_trace_bytes(trace.document());
  REQUIRE_FALSE(loaded.error);
  const auto tree = tr::EventTree::build(loaded.model);
  return wi::RunGraph::build(loaded.model, tree);
}

// Every op whose kernel name contains `needle`, at `factor` times its measured duration.
std::vector<wi::KernelTarget> scaled(const wi::RunGraph& g, const std::string& needle,
                                     double factor) {
  std::vector<wi::KernelTarget> out;
  for (const wi::GpuOp& op : g.ops()) {
    if (g.str(op.name).find(needle) == std::string_view::npos) continue;
    out.push_back({op.uid, static_cast<std::int64_t>(static_cast<double>(op.dur) * factor)});
  }
  return out;
}

void require_identity(const wi::RunGraph& g) {
  const wi::Prediction p = wi::simulate(g, {});
  REQUIRE(p.steps.size() == g.steps().size());
  for (const auto& s : p.steps) {
    CHECK(s.predicted_ns == s.measured_ns);
    CHECK(s.path.total() == s.predicted_ns);
  }
  CHECK(p.predicted_total_ns == p.measured_total_ns);
  CHECK(p.path.total() == p.predicted_total_ns);
}

constexpr std::int64_t kUs = 1000;

}  // namespace

TEST_CASE("what-if: a launch-bound step gains nothing from faster kernels", "[whatif]") {
  // 19 tiny kernels, one launch every 50 µs; the GPU idles between them.
  TraceText t;
  t.host("user_annotation", "ProfilerStep#1", 0, 1000);
  for (int i = 0; i < 19; ++i) {
    const double ts = 10 + 50 * i;
    t.host("cpu_op", "aten::mm", ts - 1, 8);
    t.launch("gemm_kernel", ts, ts + 5, 2);
  }
  t.host("cuda_runtime", "cudaDeviceSynchronize", 990, 8);
  const wi::RunGraph g = graph_of(t);
  REQUIRE(g.step_source() == wi::StepSource::kProfilerStep);
  REQUIRE(g.steps().size() == 1);
  REQUIRE(g.ops().size() == 19);
  CHECK(g.measured_steps()[0] == 1000 * kUs);
  require_identity(g);

  const auto targets = scaled(g, "gemm", 0.5);
  const wi::StepGain gain = wi::predict_gain(g, targets);
  CHECK(gain.total_ns == 0);
  CHECK(gain.sum_ns == 0);
  CHECK_FALSE(gain.heuristic);
  // The critical path is host work: the kernels are not on it.
  const wi::Prediction p = wi::simulate(g, targets);
  CHECK(p.path[wi::PathKind::kHost] + p.path[wi::PathKind::kSync] > 950 * kUs);
  CHECK(p.path[wi::PathKind::kGpuCompute] < 5 * kUs);
  // The perf model's category of the launching op.
  CHECK(g.str(g.ops()[0].op_name) == "aten::mm");
  CHECK(g.str(g.ops()[0].category) == "GEMM");
}

TEST_CASE("what-if: a GPU-bound step gains the time taken off one kernel", "[whatif]") {
  TraceText t;
  t.host("user_annotation", "ProfilerStep#1", 0, 530);
  for (int i = 0; i < 5; ++i) {
    t.launch("kernel_" + std::to_string(i), 10 + 10 * i, 15 + 100 * i, 100);
  }
  t.host("cuda_runtime", "cudaDeviceSynchronize", 60, 460);  // returns 5 µs after the last kernel
  const wi::RunGraph g = graph_of(t);
  CHECK(g.measured_steps()[0] == 530 * kUs);
  require_identity(g);

  const wi::StepGain half = wi::predict_gain(g, scaled(g, "kernel_2", 0.5));
  CHECK(half.total_ns == 50 * kUs);
  CHECK(half.per_step_ns == std::vector<std::int64_t>{50 * kUs});
  const wi::StepGain all = wi::predict_gain(g, scaled(g, "kernel_", 0.5));
  CHECK(all.total_ns == 250 * kUs);
  // Twice as slow: every kernel is still queued behind the previous one.
  const wi::StepGain slower = wi::predict_gain(g, scaled(g, "kernel_2", 2.0));
  CHECK(slower.total_ns == -100 * kUs);

  const wi::Prediction p = wi::simulate(g, {});
  CHECK(p.path[wi::PathKind::kGpuCompute] == 500 * kUs);
  CHECK(p.path[wi::PathKind::kSync] == 5 * kUs);
}

TEST_CASE("what-if: a stream waiting on another stream's event follows it", "[whatif]") {
  TraceText t;
  t.host("user_annotation", "ProfilerStep#1", 0, 340);
  t.launch("producer", 10, 20, 200, 7);
  t.host("cuda_runtime", "cudaEventRecord", 16, 1);
  t.host("cuda_runtime", "cudaStreamWaitEvent", 18, 1);
  t.launch("consumer", 25, 220, 100, 8);
  t.launch("tail", 30, 320, 10, 8);
  t.host("cuda_runtime", "cudaDeviceSynchronize", 40, 295);  // returns at 335
  const wi::RunGraph g = graph_of(t);
  REQUIRE(g.stream_count() == 2);
  CHECK(g.stats().event_waits == 1);
  require_identity(g);

  CHECK(wi::predict_gain(g, scaled(g, "producer", 0.5)).total_ns == 100 * kUs);
  CHECK(wi::predict_gain(g, scaled(g, "consumer", 0.5)).total_ns == 50 * kUs);
  // Critical path: producer, consumer, tail on the GPU.
  const wi::Prediction p = wi::simulate(g, {});
  CHECK(p.path[wi::PathKind::kGpuCompute] == 310 * kUs);
}

TEST_CASE("what-if: a sync in the middle passes a kernel's gain to the host", "[whatif]") {
  TraceText t;
  t.host("user_annotation", "ProfilerStep#1", 0, 360);
  t.launch("long_kernel", 10, 15, 300);
  t.host("cpu_op", "aten::item", 19, 303);
  t.host("cuda_runtime", "cudaStreamSynchronize", 20, 300);  // returns at 320
  t.launch("short_kernel", 330, 335, 10);
  t.host("cuda_runtime", "cudaDeviceSynchronize", 350, 5);  // the GPU is already done
  const wi::RunGraph g = graph_of(t);
  CHECK(g.stats().blocking_calls == 2);
  require_identity(g);

  // Everything after the mid-step sync moves with it.
  CHECK(wi::predict_gain(g, scaled(g, "long_kernel", 0.5)).total_ns == 150 * kUs);
  // The last kernel ends before the final sync starts: no gain.
  CHECK(wi::predict_gain(g, scaled(g, "short_kernel", 0.5)).total_ns == 0);
  const wi::Prediction p = wi::simulate(g, {});
  CHECK(p.path[wi::PathKind::kGpuCompute] == 300 * kUs);
  CHECK(p.path[wi::PathKind::kSync] == 5 * kUs + 5 * kUs);
}

TEST_CASE("what-if: unresolved dependencies are named and flag the answer", "[whatif]") {
  TraceText t;
  t.host("user_annotation", "ProfilerStep#1", 0, 300);
  t.launch("linked", 10, 15, 50);
  t.orphan_kernel("orphan", 70, 100);
  t.launch("overlapping", 20, 100, 50);  // starts before `orphan` ends on the same stream
  t.host("cuda_runtime", "cudaDeviceSynchronize", 30, 250);
  const wi::RunGraph g = graph_of(t);
  CHECK(g.stats().unlinked_ops == 1);
  CHECK(g.stats().overlapping_ops == 1);
  CHECK(g.unresolved_share() == Approx(150.0 / 200.0));
  require_identity(g);

  const wi::StepGain orphan = wi::predict_gain(g, scaled(g, "orphan", 0.5));
  CHECK(orphan.heuristic);
  CHECK(orphan.unresolved_share == Approx(1.0));
  const wi::StepGain linked = wi::predict_gain(g, scaled(g, "linked", 0.5));
  CHECK_FALSE(linked.heuristic);
  CHECK(linked.unresolved_share == 0.0);
}

TEST_CASE("what-if: without step annotations the whole trace is one step", "[whatif]") {
  TraceText t;
  t.launch("a", 10, 15, 100);
  t.launch("b", 20, 115, 100);
  t.host("cuda_runtime", "cudaDeviceSynchronize", 30, 190);
  const wi::RunGraph g = graph_of(t);
  REQUIRE(g.step_source() == wi::StepSource::kWholeTrace);
  CHECK(g.measured_steps() == std::vector<std::int64_t>{210 * kUs});
  require_identity(g);
  CHECK(wi::predict_gain(g, scaled(g, "a", 0.5)).total_ns == 50 * kUs);
  // A uid that is no GPU op changes nothing.
  const std::vector<wi::KernelTarget> none = {{0, 1}};
  CHECK(wi::simulate(g, none).changed_ops == 0);
}

TEST_CASE("what-if: consecutive steps split the run without double counting", "[whatif]") {
  // Two steps; the GPU work of step 1 spills into step 2, which ends with a sync.
  TraceText t;
  t.host("user_annotation", "ProfilerStep#1", 0, 100);
  t.launch("first", 10, 15, 200);
  t.host("user_annotation", "ProfilerStep#2", 100, 230);
  t.launch("second", 110, 215, 100);
  t.host("cuda_runtime", "cudaDeviceSynchronize", 120, 200);  // returns at 320
  const wi::RunGraph g = graph_of(t);
  REQUIRE(g.steps().size() == 2);
  CHECK(g.measured_steps() == std::vector<std::int64_t>{100 * kUs, 230 * kUs});
  require_identity(g);
  const wi::StepGain gain = wi::predict_gain(g, scaled(g, "first", 0.5));
  CHECK(gain.per_step_ns == std::vector<std::int64_t>{0, 100 * kUs});
  CHECK(gain.sum_ns == gain.total_ns);
}

TEST_CASE("what-if: a synchronous copy waits for its own copy and what precedes it", "[whatif]") {
  TraceText t;
  t.host("user_annotation", "ProfilerStep#1", 0, 400);
  t.launch("long_kernel", 10, 20, 300);
  // cudaMemcpy launches its copy (queued behind the kernel) and returns 5 µs after it ends.
  t.launch("Memcpy DtoH (Device -> Pageable)", 30, 320, 10, 7, "cudaMemcpy", "gpu_memcpy", 305);
  t.launch("after_copy", 340, 345, 20);
  t.host("cuda_runtime", "cudaDeviceSynchronize", 350, 20);  // returns 5 µs after it
  const wi::RunGraph g = graph_of(t);
  require_identity(g);
  CHECK(g.stats().cyclic_nodes == 0);
  CHECK(wi::predict_gain(g, scaled(g, "long_kernel", 0.5)).total_ns == 150 * kUs);
}

TEST_CASE("what-if: a sync waits for ops in flight before the profiler saw their launch",
          "[whatif]") {
  // The trace opens on a kernel launched before the profiling window (no launch, no flow);
  // the step's first sync waits for it.
  TraceText t;
  t.orphan_kernel("in_flight", 0, 200);
  t.host("user_annotation", "ProfilerStep#1", 5, 300);
  t.host("cuda_runtime", "cudaDeviceSynchronize", 10, 195);  // returns at 205
  t.launch("next", 210, 215, 50);
  t.host("cuda_runtime", "cudaDeviceSynchronize", 220, 50);  // returns at 270
  const wi::RunGraph g = graph_of(t);
  require_identity(g);
  const wi::StepGain gain = wi::predict_gain(g, scaled(g, "in_flight", 0.5));
  CHECK(gain.total_ns == 100 * kUs);
  CHECK(gain.heuristic);
}

TEST_CASE("what-if: events with impossible times are left out, not replayed", "[whatif]") {
  TraceText t;
  t.host("user_annotation", "ProfilerStep#1", 0, 300);
  t.launch("fine", 10, 15, 100);
  t.launch("negative", 20, 120, -5);
  t.launch("far", 30, 4e15, 1e15);  // ns beyond 2^61
  t.host("cuda_runtime", "cudaDeviceSynchronize", 40, 80);
  const wi::RunGraph g = graph_of(t);
  REQUIRE(g.ops().size() == 1);
  require_identity(g);
}
