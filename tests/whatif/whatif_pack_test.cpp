// The what-if model over every trace of the reference pack: identity (no change) reproduces
// every step's measured duration within 0.5 % (docs/what-if.md, "Identity"), and halving every
// GPU op never lengthens the run nor gains more than the time taken off.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/json_reader.hpp"
#include "loupe/core/whatif/run_graph.hpp"
#include "loupe/core/whatif/simulate.hpp"
#include "reference_pack.hpp"
#include "test_paths.hpp"

namespace {

namespace fs = std::filesystem;
namespace tr = loupe::core::trace;
namespace wi = loupe::core::whatif;

std::vector<fs::path> pack_traces(const fs::path& shared) {
  return loupe::test::pack_trace_files(shared);
}

}  // namespace

TEST_CASE("what-if identity reproduces every step of every pack trace", "[whatif][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  std::size_t traces = 0, steps = 0;
  double worst = 0;
  for (const fs::path& path : pack_traces(shared)) {
    auto loaded = tr::load_trace(path);
    if (loaded.error || loaded.model.events_in_category(tr::Category::kKernel) == 0) continue;
    INFO(path.string());
    const auto tree = tr::EventTree::build(loaded.model);
    const wi::RunGraph g = wi::RunGraph::build(loaded.model, tree);
    REQUIRE_FALSE(g.steps().empty());
    const wi::Prediction p = wi::simulate(g, {});
    REQUIRE(p.steps.size() == g.steps().size());
    for (std::size_t i = 0; i < p.steps.size(); ++i) {
      const auto& s = p.steps[i];
      INFO(g.steps()[i].name << ": measured " << s.measured_ns << " ns, replayed " << s.predicted_ns
                             << " ns");
      REQUIRE(s.measured_ns > 0);
      const double error = std::abs(static_cast<double>(s.predicted_ns - s.measured_ns)) /
                           static_cast<double>(s.measured_ns);
      CHECK(error <= 0.005);
      CHECK(s.path.total() == s.predicted_ns);  // the critical path covers the step once
      worst = std::max(worst, error);
      ++steps;
    }
    CHECK(p.predicted_total_ns == p.measured_total_ns);
    CHECK(p.path.total() == p.predicted_total_ns);

    // Halving every op: the run gets no longer, and gains at most the time taken off.
    std::vector<wi::KernelTarget> half;
    std::int64_t removed = 0;
    for (const wi::GpuOp& op : g.ops()) {
      half.push_back({op.uid, op.dur / 2});
      removed += op.dur - op.dur / 2;
    }
    const wi::StepGain gain = wi::predict_gain(g, half);
    CHECK(gain.total_ns >= 0);
    CHECK(gain.total_ns <= removed);
    const wi::Prediction halved = wi::simulate(g, half);
    for (const auto& s : halved.steps) CHECK(s.path.total() == s.predicted_ns);
    CHECK(halved.path.total() == halved.predicted_total_ns);
    ++traces;
  }
  WARN("what-if identity: " << traces << " traces, " << steps << " steps, worst step error "
                            << worst * 100 << " %");
  CHECK(traces >= 40);
  CHECK(steps >= 45);
}
