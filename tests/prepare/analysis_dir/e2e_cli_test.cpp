// `loupe analyze --trace T --compat tracelens` from every raw trace of the reference pack to
// validated findings: the analyzers' metrics equal those TraceLens's scripts wrote from
// TraceLens's own directory, every category ends OK or NO_DATA, and the run's analysis.md
// passes Loupe's report validator and TraceLens's own validate_report.
#include <catch2/catch.hpp>

#include <filesystem>

#include <rapidjson/document.h>

#include "cli_runner.hpp"
#include "loupe/core/validate/validator.hpp"
#include "prepare_test_support.hpp"
#include "reference_pack.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;

TEST_CASE("raw trace to findings: metrics equal TraceLens's for every reference run",
          "[prepare][analysis_dir][e2e][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  std::size_t runs = 0, compared = 0, reports = 0;
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
    {
      // Scope as TraceLens's orchestrator passes it (Step 11.1): the run's own, standalone here.
      const auto native = loupe::core::validate_report(tmp.path(), loupe::core::Scope::Standalone);
      INFO(loupe::core::format_validation_text(native));
      CHECK(native.passed);
      const auto tracelens = loupe::test::run_process(
          "/usr/bin/python3",
          {(fs::path(LOUPE_TESTS_SOURCE_DIR) / "tools/tracelens_validate_report.py").string(),
           (shared / "reference/tracelens").string(), "standalone", tmp.path().string()});
      INFO("TraceLens: " << tracelens.out);
      rapidjson::Document verdict;
      verdict.Parse(tracelens.out.c_str());
      CHECK((verdict.IsObject() && verdict.HasMember("passed") && verdict["passed"].GetBool()));
      reports += native.passed ? 1U : 0U;
    }
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
  CHECK(runs >= 43);  // 39 of data/reference + 4 serving-engine runs
  CHECK(reports == runs);
  CHECK(compared >= 190);  // every metrics file the analyzers write for those runs
}
