// The what-if model handed to the report through the trace views: built in default mode, absent
// when not asked for, and usable after the trace model and the tree are gone.
#include <catch2/catch.hpp>

#include <memory>
#include <vector>

#include "loupe/core/prepare/trace_views.hpp"
#include "loupe/core/trace/json_reader.hpp"
#include "loupe/core/whatif/simulate.hpp"
#include "whatif_trace.hpp"

namespace {
namespace lp = loupe::core::prepare;
namespace tr = loupe::core::trace;
namespace wi = loupe::core::whatif;
using loupe::test::whatif_trace::TraceText;

std::string gpu_bound_trace() {
  TraceText t;
  t.host("user_annotation", "ProfilerStep#1", 0, 530);
  for (int i = 0; i < 5; ++i)
    t.launch("kernel_" + std::to_string(i), 10 + 10 * i, 15 + 100 * i, 100);
  t.host("cuda_runtime", "cudaDeviceSynchronize", 60, 460);
  return t.document();
}
}  // namespace

TEST_CASE("trace views carry the what-if model beyond the trace model", "[whatif]") {
  std::shared_ptr<const wi::RunGraph> graph;
  std::vector<wi::KernelTarget> targets;
  {
    auto loaded = tr::load_trace_bytes(gpu_bound_trace());
    REQUIRE_FALSE(loaded.error);
    const auto tree = tr::EventTree::build(loaded.model);
    lp::TraceViewsOptions without;
    without.run_graph = false;
    CHECK(lp::build_trace_views(loaded.model, tree, without).run_graph == nullptr);
    const lp::TraceViews views = lp::build_trace_views(loaded.model, tree);
    REQUIRE(views.run_graph != nullptr);
    graph = views.run_graph;
    // The gpu_events.csv uid of kernel_1 is the id predict_gain takes.
    const auto& rows = *views.gpu_events;
    const std::size_t uid = rows.find_column("uid").value();
    const std::size_t name = rows.find_column("name").value();
    for (std::size_t r = 0; r < rows.row_count(); ++r) {
      if (rows.cell(r, name).text == "kernel_1") {
        targets.push_back({static_cast<std::uint32_t>(rows.cell(r, uid).number), 10'000});
      }
    }
  }  // the trace model and the tree are freed
  REQUIRE(targets.size() == 1);
  const wi::StepGain gain = wi::predict_gain(*graph, targets);
  CHECK(gain.total_ns == 90'000);
  CHECK(gain.per_step_ns == std::vector<std::int64_t>{90'000});
}
