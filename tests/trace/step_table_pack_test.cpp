// The per-step table (step_table.hpp) on every trace of the reference pack: each step's idle is
// its GPU span minus its busy time, split by cause without loss; the classes and the host time
// fit in what they are parts of; every trace with ProfilerStep annotations or serving step
// labels has steps.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/json_reader.hpp"
#include "loupe/core/trace/step_table.hpp"
#include "reference_pack.hpp"
#include "test_paths.hpp"

namespace tr = loupe::core::trace;

TEST_CASE("the step table holds on every trace of the pack", "[trace][steps][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  const auto traces = loupe::test::pack_trace_files(shared);
  REQUIRE(traces.size() >= 40);
  std::size_t profiler = 0, serving = 0, steps = 0, with_gpu = 0;
  for (const auto& path : traces) {
    INFO(path.string());
    const auto loaded = tr::load_trace(path);
    if (loaded.error) continue;
    const auto tree = tr::EventTree::build(loaded.model);
    const tr::StepTable t = tr::build_step_table(loaded.model, tree);
    if (t.source == tr::StepSource::kProfilerStep) ++profiler;
    if (t.source == tr::StepSource::kServingLabel) ++serving;
    if (t.source == tr::StepSource::kNone) CHECK(t.steps.empty());
    for (const auto& s : t.steps) {
      INFO(s.name);
      ++steps;
      CHECK(s.step_ns() >= 0);
      CHECK(s.host_ns <= s.step_ns());
      CHECK(s.busy_ns <= s.gpu_span_ns);
      CHECK(s.idle.total() == s.gpu_span_ns - s.busy_ns);
      CHECK(s.computation_ns <= s.busy_ns);
      CHECK(s.communication_ns <= s.busy_ns);
      CHECK(s.memcpy_ns <= s.busy_ns);
      CHECK(s.computation_ns + s.communication_ns + s.memcpy_ns >= s.busy_ns);
      CHECK(s.queue_empty_ns <= s.gpu_span_ns);
      CHECK(s.queue_mean >= 0.0);
      if (s.gpu_ops > 0) ++with_gpu;
    }
    if (t.variation) {
      CHECK(t.variation->steady_steps >= tr::kMinStepsForVariation);
      for (const std::size_t i : t.variation->slow) CHECK_FALSE(t.steps[i].warmup);
    }
    // The document round-trips.
    const auto back = tr::step_table_from_json(tr::step_table_json(t));
    REQUIRE(back);
    CHECK(back->steps.size() == t.steps.size());
  }
  // 16 pack traces carry ProfilerStep annotations (one step each, three in the MI300X ResNet
  // trace), the SGLang and the two vLLM execution traces one serving step label each.
  CHECK(profiler >= 16);
  CHECK(serving >= 3);
  CHECK(steps >= 21);
  CHECK(with_gpu >= 20);
}
