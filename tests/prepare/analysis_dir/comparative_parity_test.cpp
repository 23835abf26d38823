// `loupe analyze --trace T1 --trace2 T2 --compat tracelens` prepares what TraceLens's
// comparative flow wrote (perf report of trace 1 with --comparison_json_path, perf report of
// trace 2, orchestrator_prepare --comparison-scope comparative), byte for byte, for the three
// comparative reference runs; and refuses a GPU-only trace in a comparison.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <string>

#include "cli_runner.hpp"
#include "loupe/core/prepare/analysis_dir_writer.hpp"
#include "loupe/core/trace/json_reader.hpp"
#include "prepare_test_support.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;
namespace lp = loupe::core::prepare;
namespace lt = loupe::core::trace;

namespace {

constexpr std::string_view kOutputDir = "/nonexistent/loupe-comparative-out";

using LoadedTrace = loupe::test::TraceWithTree;

LoadedTrace load(const fs::path& path) { return loupe::test::load_with_report_tree(path); }

}  // namespace

TEST_CASE("comparative directories equal TraceLens's for the three comparative runs",
          "[prepare][analysis_dir][parity][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  const lp::ArchSelection arch = lp::select_arch(std::nullopt, std::string("MI300X"), {});
  for (const char* pair : {"test01_moe_fused_vs_unfused", "test02_attention_both_unfused",
                           "test03_attention_fused_vs_unfused"}) {
    INFO("pair " << pair);
    const fs::path run_dir = shared / "data/reference" / (std::string("comparative_utc_") + pair);
    const fs::path traces = shared / "data/traces/unit_tests_comparative" / pair;
    const LoadedTrace trace1 = load(traces / "trace1.json");
    const LoadedTrace trace2 = load(traces / "trace2.json");

    lp::PrepareOptions options;
    options.trace_path = traces / "trace1.json";
    options.output_dir = std::string(kOutputDir);
    options.arch = arch;
    options.compat_tracelens = true;
    const auto prepared = lp::prepare_comparative_directory(
        {trace1.loaded.model, trace1.tree}, {trace2.loaded.model, trace2.tree}, options);

    const std::string ref_trace = loupe::test::manifest_trace_path(
        loupe::test::read_text(run_dir / "category_data/category_manifest.json"));
    std::map<std::string, std::string> ours;
    for (const auto& file : prepared.files) {
      ours[file.relative_path] = loupe::test::replace_all(
          loupe::test::replace_all(file.bytes, options.trace_path.lexically_normal().string(),
                                   ref_trace),
          std::string(kOutputDir), "<output_dir>");
    }
    const auto expected = loupe::test::prepared_reference_files(
        run_dir,
        {"category_data", "metadata", "perf_report_trace1_csvs", "perf_report_trace2_csvs"});
    CHECK(expected.count("perf_report_trace1_csvs/diff_stats.csv") == 1);
    for (const auto& rel : expected) {
      INFO("file " << rel);
      REQUIRE(ours.count(rel) == 1);
      const std::string theirs = loupe::test::read_text(run_dir / rel);
      if (rel.ends_with(".csv")) {
        INFO(loupe::test::first_csv_difference(ours.at(rel), theirs));
        CHECK(ours.at(rel) == theirs);
      } else {
        CHECK(ours.at(rel) == theirs);
      }
    }
    for (const auto& [rel, bytes] : ours) {
      INFO("file " << rel);
      CHECK(expected.count(rel) == 1);  // nothing TraceLens did not write
    }
  }
}

TEST_CASE("a comparison with a GPU-only trace is refused, naming which trace",
          "[prepare][analysis_dir][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  const LoadedTrace host =
      load(shared / "data/traces/unit_tests_comparative/test02_attention_both_unfused/trace1.json");
  const LoadedTrace gpu_only =
      load(shared / "data/traces/mi210/gpu_only_trace/gpu_only_trace.json.gz");
  lp::PrepareOptions options;
  options.output_dir = std::string(kOutputDir);
  options.arch = lp::select_arch(std::nullopt, std::string("MI300X"), {});
  CHECK_THROWS_WITH(
      lp::prepare_comparative_directory({host.loaded.model, host.tree},
                                        {gpu_only.loaded.model, gpu_only.tree}, options),
      Catch::Contains("the second trace has GPU events only"));
  CHECK_THROWS_WITH(lp::prepare_comparative_directory({gpu_only.loaded.model, gpu_only.tree},
                                                      {host.loaded.model, host.tree}, options),
                    Catch::Contains("the first trace has GPU events only"));
}
