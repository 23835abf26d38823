// Which kernels a sheet row is timed on, on the fwd/bwd fixture of the trace tests
// (tests/data/trace/testcases/t14_fwd_bwd): aten::linear(seq 5) > aten::mm(seq 5) > launch >
// gemm_fwd; autograd::engine::evaluate_function: MmBackward0(seq 5) > MmBackward0 > aten::mm >
// launch > gemm_bwd.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "loupe/core/prepare/perf_sheets.hpp"
#include "loupe/core/trace/json_reader.hpp"
#include "op_kernels.hpp"
#include "test_paths.hpp"

namespace lt = loupe::core::trace;
namespace sh = loupe::core::prepare::sheets;

namespace {

struct Fixture {
  lt::LoadResult loaded;
  lt::EventTree tree;
};

Fixture load_fixture() {
  auto loaded =
      lt::load_trace(loupe::test::bundled_data_dir() / "trace/testcases/t14_fwd_bwd/trace.json");
  REQUIRE_FALSE(loaded.error.has_value());
  lt::TreeOptions options;
  options.time_mode = lt::TimeMode::kTraceLensCompat;
  auto tree = lt::EventTree::build(loaded.model, options);
  return {std::move(loaded), std::move(tree)};
}

}  // namespace

TEST_CASE("rows are timed on subtree kernels, backward rows on their autograd events' kernels",
          "[prepare][perf_sheets]") {
  const Fixture f = load_fixture();
  const auto& model = f.loaded.model;
  CHECK(sh::subtree_kernels(model, f.tree, 0) == std::vector<lt::Uid>{3});
  CHECK(sh::subtree_kernels(model, f.tree, 6) == std::vector<lt::Uid>{10});
  CHECK(sh::subtree_kernels(model, f.tree, 3) == std::vector<lt::Uid>{3});  // a kernel: itself
  // aten::mm carries the autograd link itself; aten::linear gets it from its subtree.
  CHECK(sh::backward_events(f.tree, 1) == std::vector<lt::Uid>{6});
  CHECK(sh::backward_events(f.tree, 0) == std::vector<lt::Uid>{6});
  CHECK(sh::backward_events(f.tree, 8).empty());
}

TEST_CASE("GEMM is one table holding forward and backward aten::mm instances",
          "[prepare][perf_sheets]") {
  const Fixture f = load_fixture();
  const auto sheets = loupe::core::prepare::build_perf_sheets(f.loaded.model, f.tree, nullptr);
  REQUIRE(sheets.size() == 1);
  CHECK(sheets[0].file_name == "GEMM.csv");
  // The backward aten::mm (2x4 @ 4x3) is a row of its own: GEMM has no backward table.
  const std::string& csv = sheets[0].csv;
  INFO(csv);
  CHECK(csv.starts_with("name,param: M,param: N,param: K,param: bias,"));
  CHECK(csv.find("\naten::mm,2,4,3,False,") != std::string::npos);
  CHECK(csv.find("\naten::mm,2,3,4,False,") != std::string::npos);
  CHECK(std::count(csv.begin(), csv.end(), '\n') == 3);
  // No arch: no roofline columns.
  CHECK(csv.find("Roofline") == std::string::npos);
}
