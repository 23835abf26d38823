// `loupe analyze --trace T --compat tracelens` from every raw trace of the reference pack to
// validated findings: the analyzers' metrics equal those TraceLens's scripts wrote from
// TraceLens's own directory, and every category ends OK or NO_DATA.
#include <catch2/catch.hpp>

#include <filesystem>

#include "cli_runner.hpp"
#include "prepare_test_support.hpp"
#include "reference_pack.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;

TEST_CASE("raw trace to findings: metrics equal TraceLens's for every reference run",
          "[prepare][analysis_dir][e2e][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  std::size_t runs = 0, compared = 0;
  for (const auto& run : loupe::test::all_reference_runs(shared)) {
    INFO("run " << run.name);
    loupe::test::TempDir tmp;
    const auto r =
        loupe::test::run_loupe({"analyze", "--trace", run.trace.string(), "-o", tmp.path().string(),
                                "--compat", "tracelens", "--platform", "MI300X", "-q"});
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);  // every category OK or NO_DATA, every findings file valid
    // Every category of every manifest has an analyzer (routing by skill, then the fallback).
    if (run.name != "mi210_gpu_only") {
      CHECK_THAT(loupe::test::read_text(tmp.path() / "loupe_run.json"),
                 Catch::Contains("\"unhandled_categories\": []"));
    }
    ++runs;
    for (const auto& entry : fs::directory_iterator(tmp.path() / "category_data")) {
      const std::string name = entry.path().filename().string();
      if (!name.ends_with("_metrics.json")) continue;
      INFO("file " << name);
      const fs::path expected = run.directory / "category_data" / name;
      if (run.name == "mi210_gpu_only") {
        // TraceLens's prepare step crashed there, so its analyzers wrote ERROR metrics.
        CHECK_FALSE(loupe::test::read_text(entry.path()).find("\"ERROR\"") != std::string::npos);
        continue;
      }
      REQUIRE(fs::exists(expected));
      // The pack writes the recording machine's temp directory as <tmp> (b200_eager's Inductor
      // call stacks); the trace itself still holds it, so undo that in the reference.
      CHECK(loupe::test::read_text(entry.path()) ==
            loupe::test::undo_tmp_placeholder(loupe::test::read_text(expected)));
      ++compared;
    }
  }
  WARN("compared " << compared << " metrics files of " << runs << " runs");
  CHECK(runs >= 43);       // 39 of data/reference + 4 serving-engine runs
  CHECK(compared >= 190);  // every metrics file the analyzers write for those runs
}
