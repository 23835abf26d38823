// TraceLens parity of the six compute-category plugins on the reference pack (skipped without
// ../shared): every <cat>_metrics.json TraceLens wrote for a run of data/reference/ or
// data/reference-inference/ (standalone and comparative runs, scope from the run's manifest)
// must be reproduced byte for byte by `--compat tracelens`; the findings of that run must pass
// the TraceLens validator, and the default mode on the same inputs must give metrics without
// NaN and findings that pass Loupe's validator, with every card's measured facts and savings.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "compute_plugin_test_support.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;
using loupe::test::read_text;
using loupe::test::TempDir;

namespace {

struct RunCase {
  fs::path dir;
  std::string category;
};

std::vector<RunCase> runs_with(const fs::path& shared, const std::vector<std::string>& categories) {
  std::vector<RunCase> out;
  for (const fs::path& root : {shared / "data/reference", shared / "data/reference-inference"}) {
    std::vector<fs::path> dirs;
    for (const auto& entry : fs::directory_iterator(root)) {
      if (entry.is_directory()) dirs.push_back(entry.path());
    }
    std::sort(dirs.begin(), dirs.end());
    for (const auto& dir : dirs) {
      for (const auto& cat : categories) {
        if (fs::exists(dir / "category_data" / (cat + "_metrics.json"))) out.push_back({dir, cat});
      }
    }
  }
  return out;
}

void check_run(const RunCase& run) {
  INFO(run.dir.string() << " " << run.category);
  const std::string scope = compute_test::manifest_scope(run.dir);
  TempDir tmp;
  const auto compat = compute_test::analyze(run.dir, tmp.path() / "compat", run.category, true);
  INFO(compat.err);
  REQUIRE(compat.exit_code == 0);
  CHECK(compute_test::metrics_with_placeholder(tmp.path() / "compat", run.category, run.dir) ==
        read_text(run.dir / "category_data" / (run.category + "_metrics.json")));
  const fs::path compat_md =
      tmp.path() / "compat" / "category_findings" / (run.category + "_findings.md");
  CHECK(compute_test::validate(compat_md, scope, true).exit_code == 0);

  const auto fixed = compute_test::analyze(run.dir, tmp.path() / "default", run.category, false);
  REQUIRE(fixed.exit_code == 0);
  CHECK(read_text(tmp.path() / "default" / "category_data" / (run.category + "_metrics.json"))
            .find("NaN") == std::string::npos);
  const fs::path md =
      tmp.path() / "default" / "category_findings" / (run.category + "_findings.md");
  const auto check = compute_test::validate(md, scope, false);
  INFO(check.out << check.err);
  CHECK(check.exit_code == 0);
  for (const auto& card : compute_test::cards(read_text(md))) {
    INFO(card);
    CHECK(compute_test::missing_card_facts(card).empty());
  }
}

void sweep(const std::vector<std::string>& categories, size_t expected) {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  const auto runs = runs_with(shared, categories);
  CHECK(runs.size() == expected);
  for (const auto& run : runs) check_run(run);
}

}  // namespace

TEST_CASE("gemm parity: every TraceLens gemm metrics file of the pack", "[pack]") {
  sweep({"gemm"}, 21);  // 18 in data/reference (1 comparative scope), 3 in reference-inference
}

TEST_CASE("elementwise parity: every TraceLens elementwise metrics file of the pack", "[pack]") {
  sweep({"elementwise"}, 18);  // 14 in data/reference, 4 in reference-inference
}

TEST_CASE("norm parity: every TraceLens norm metrics file of the pack", "[pack]") {
  // 7 norm_fwd + 1 norm_bwd in data/reference, 1 norm_fwd in reference-inference
  sweep({"norm", "norm_fwd", "norm_bwd", "rmsnorm"}, 9);
}

TEST_CASE("reduce parity: every TraceLens reduce metrics file of the pack", "[pack]") {
  sweep({"reduce"}, 9);  // 7 in data/reference, 2 in reference-inference
}

TEST_CASE("moe parity: every TraceLens moe metrics file of the pack", "[pack]") {
  // moe_unfused of utc_test01 trace 1 and of the comparative run (scope comparative)
  sweep({"moe_fused", "moe_unfused"}, 2);
}

TEST_CASE("triton parity: every TraceLens triton metrics file of the pack", "[pack]") {
  sweep({"triton"}, 2);  // b200_eager and utc_test01 trace 2, both in data/reference
}
