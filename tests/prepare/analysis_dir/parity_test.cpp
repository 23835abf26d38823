// The analysis directory `loupe analyze --trace --compat tracelens` prepares equals what
// TraceLens's orchestrator wrote (category_data/, metadata/, gpu_timeline.csv), byte for byte,
// for every reference run. Until Loupe computes unified_perf_summary.csv itself, the test
// feeds TraceLens's file as the transitional input (PrepareOptions::unified_perf_summary_csv).
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <set>
#include <string>

#include "cli_runner.hpp"
#include "loupe/core/prepare/analysis_dir_writer.hpp"
#include "loupe/core/trace/json_reader.hpp"
#include "reference_pack.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;
namespace lp = loupe::core::prepare;

namespace {

constexpr std::string_view kOutputDir = "/nonexistent/loupe-parity-out";

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t pos = text.find(from); pos != std::string::npos;
       pos = text.find(from, pos + to.size())) {
    text.replace(pos, from.size(), to);
  }
  return text;
}

// "trace_path": "<value>" of a manifest text.
std::string manifest_trace_path(const std::string& manifest) {
  const std::string key = "\"trace_path\": \"";
  const std::size_t start = manifest.find(key) + key.size();
  return manifest.substr(start, manifest.find('"', start) - start);
}

// Reference files the preparation writes (the analyzers' *_metrics.json are not its job).
std::set<std::string> prepared_reference_files(const fs::path& run_dir) {
  std::set<std::string> files;
  for (const char* sub : {"category_data", "metadata"}) {
    if (!fs::is_directory(run_dir / sub)) continue;
    for (const auto& entry : fs::directory_iterator(run_dir / sub)) {
      const std::string name = entry.path().filename().string();
      if (name.ends_with("_metrics.json")) continue;
      files.insert(std::string(sub) + "/" + name);
    }
  }
  files.insert("perf_report_csvs/gpu_timeline.csv");
  return files;
}

}  // namespace

TEST_CASE("prepared directories equal TraceLens's for every reference run",
          "[prepare][analysis_dir][parity]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  const auto runs = loupe::test::reference_runs(shared);
  REQUIRE(runs.size() >= 30);
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
    options.unified_perf_summary_csv = loupe::test::read_text(unified_path);
    const auto prepared = lp::prepare_analysis_directory(loaded.model, options);

    const std::string ref_trace = manifest_trace_path(loupe::test::read_text(manifest_path));
    std::map<std::string, std::string> ours;
    for (const auto& file : prepared.files) {
      ours[file.relative_path] =
          replace_all(replace_all(file.bytes, run.trace.lexically_normal().string(), ref_trace),
                      std::string(kOutputDir), "<output_dir>");
    }
    const auto expected = prepared_reference_files(run.directory);
    for (const auto& rel : expected) {
      INFO("file " << rel);
      REQUIRE(ours.count(rel) == 1);
      CHECK(ours.at(rel) == loupe::test::read_text(run.directory / rel));
      ++compared_files;
    }
    for (const auto& [rel, bytes] : ours) {
      INFO("file " << rel);
      CHECK(expected.count(rel) == 1);  // nothing TraceLens did not write
    }
    ++compared_runs;
  }
  WARN("compared " << compared_files << " files of " << compared_runs << " runs");
  CHECK(compared_runs >= 35);
}
