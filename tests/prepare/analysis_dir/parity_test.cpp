// The analysis directory `loupe analyze --trace --compat tracelens` prepares equals what
// TraceLens's perf report and orchestrator wrote (perf_report_csvs/, category_data/,
// metadata/), byte for byte, for every reference run (training-style and serving-engine traces).
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <set>
#include <string>

#include "cli_runner.hpp"
#include "loupe/core/prepare/analysis_dir_writer.hpp"
#include "loupe/core/trace/json_reader.hpp"
#include "loupe/core/trace/pseudo_ops.hpp"
#include "prepare_test_support.hpp"
#include "reference_pack.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;
namespace lp = loupe::core::prepare;

namespace {

constexpr std::string_view kOutputDir = "/nonexistent/loupe-parity-out";

}  // namespace

TEST_CASE("prepared directories equal TraceLens's for every reference run",
          "[prepare][analysis_dir][parity][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  const auto runs = loupe::test::all_reference_runs(shared);
  REQUIRE(runs.size() >= 43);
  lp::ArchSelection arch = lp::select_arch(std::nullopt, std::string("MI300X"), {});
  std::size_t compared_runs = 0, compared_files = 0;
  for (const auto& run : runs) {
    const fs::path manifest_path = run.directory / "category_data/category_manifest.json";
    const fs::path unified_path = run.directory / "perf_report_csvs/unified_perf_summary.csv";
    if (!fs::exists(manifest_path) || !fs::exists(unified_path)) continue;  // TraceLens failed
    INFO("run " << run.name);
    auto loaded = loupe::core::trace::load_trace(run.trace);
    REQUIRE_FALSE(loaded.error.has_value());

    lp::PrepareOptions options;
    options.trace_path = run.trace;
    options.output_dir = std::string(kOutputDir);
    options.arch = arch;
    options.compat_tracelens = true;
    auto tree = loupe::core::trace::EventTree::build(loaded.model, lp::prepare_tree_options());
    // The reference pipeline runs with pseudo ops (docs/contracts/trace_model.md §2.10).
    loupe::core::trace::add_pseudo_ops(loaded.model, tree, {});
    const auto prepared = lp::prepare_analysis_directory(loaded.model, tree, options);

    const std::string ref_trace =
        loupe::test::manifest_trace_path(loupe::test::read_text(manifest_path));
    std::map<std::string, std::string> ours;
    for (const auto& file : prepared.files) {
      ours[file.relative_path] = loupe::test::replace_all(
          loupe::test::replace_all(file.bytes, run.trace.lexically_normal().string(), ref_trace),
          std::string(kOutputDir), "<output_dir>");
    }
    const auto expected = loupe::test::prepared_reference_files(
        run.directory, {"category_data", "metadata", "perf_report_csvs"});
    for (const auto& rel : expected) {
      INFO("file " << rel);
      REQUIRE(ours.count(rel) == 1);
      CHECK(ours.at(rel) ==
            loupe::test::undo_tmp_placeholder(loupe::test::read_text(run.directory / rel)));
      ++compared_files;
    }
    for (const auto& [rel, bytes] : ours) {
      INFO("file " << rel);
      CHECK(expected.count(rel) == 1);  // nothing TraceLens did not write
    }
    ++compared_runs;
  }
  WARN("compared " << compared_files << " files of " << compared_runs << " runs");
  CHECK(compared_runs >= 42);  // 38 of data/reference (not mi210_gpu_only) + 4 inference runs
  CHECK(compared_files >= 790);
}

TEST_CASE("a GPU-only trace yields what GPU events allow and says what is missing",
          "[prepare][analysis_dir][parity][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  const fs::path run_dir = shared / "data/reference/mi210_gpu_only";
  auto loaded = loupe::core::trace::load_trace(
      shared / "data/traces/mi210/gpu_only_trace/gpu_only_trace.json.gz");
  REQUIRE_FALSE(loaded.error.has_value());
  lp::PrepareOptions options;
  options.trace_path = "gpu_only_trace.json.gz";
  options.output_dir = std::string(kOutputDir);
  options.arch = lp::select_arch(std::nullopt, std::nullopt, loaded.model.device_names());
  options.compat_tracelens = true;
  auto tree = loupe::core::trace::EventTree::build(loaded.model, lp::prepare_tree_options());
  loupe::core::trace::add_pseudo_ops(loaded.model, tree, {});
  const auto prepared = lp::prepare_analysis_directory(loaded.model, tree, options);
  CHECK(prepared.gpu_only);
  std::map<std::string, std::string> files;
  for (const auto& f : prepared.files) files[f.relative_path] = f.bytes;
  // TraceLens's perf report wrote only the timeline (its prepare step then crashed).
  REQUIRE(files.count("perf_report_csvs/gpu_timeline.csv") == 1);
  CHECK(files.at("perf_report_csvs/gpu_timeline.csv") ==
        loupe::test::read_text(run_dir / "perf_report_csvs/gpu_timeline.csv"));
  CHECK(files.count("perf_report_csvs/unified_perf_summary.csv") == 0);
  CHECK(files.count("perf_report_csvs/ops_summary.csv") == 0);
  CHECK(files.count("category_data/fusion_candidates.json") == 0);
  CHECK(files.count("category_data/multi_kernel_data.json") == 1);
  CHECK(files.count("category_data/category_manifest.json") == 1);
  REQUIRE(prepared.notes.size() == 1);
  CHECK_THAT(prepared.notes.front(), Catch::Contains("GPU-only trace"));
}
