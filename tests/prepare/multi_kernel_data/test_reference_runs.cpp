// Every TraceLens reference run (shared/data/reference) whose trace is in the pack:
// multi_kernel_data.json byte-identical and gpu_utilization equal to the manifest's. The
// GPU-only mi210 trace, where TraceLens's prepare step crashed, must still yield both.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "loupe/core/prepare/multi_kernel_data.hpp"
#include "mk_test_support.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;

namespace {

// "<traces>/x/y.json" from the manifest -> the pack's trace file (the pack gzips one trace).
fs::path trace_of_run(const fs::path& shared, const fs::path& manifest) {
  const std::string text = loupe::test::mk::read_file(manifest);
  const std::string key = "\"trace_path\": \"<traces>/";
  const auto at = text.find(key);
  if (at == std::string::npos) return {};
  const auto start = at + key.size();
  const fs::path rel = text.substr(start, text.find('"', start) - start);
  fs::path p = shared / "data" / "traces" / rel;
  if (!fs::exists(p)) p += ".gz";
  return fs::exists(p) ? p : fs::path();
}

}  // namespace

TEST_CASE("reference runs: multi_kernel_data.json and gpu_utilization equal TraceLens's",
          "[pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  const fs::path reference = shared / "data" / "reference";
  std::vector<fs::path> runs;
  for (const auto& entry : fs::directory_iterator(reference)) {
    if (fs::exists(entry.path() / "category_data" / "multi_kernel_data.json")) {
      runs.push_back(entry.path());
    }
  }
  std::sort(runs.begin(), runs.end());
  REQUIRE(runs.size() >= 30);
  int compared = 0;
  for (const fs::path& run : runs) {
    const fs::path manifest = run / "category_data" / "category_manifest.json";
    const fs::path trace = trace_of_run(shared, manifest);
    if (trace.empty()) continue;
    SECTION(run.filename().string()) {
      const auto produced = loupe::test::mk::produce(trace);
      CHECK(produced.data_text ==
            loupe::test::mk::read_file(run / "category_data" / "multi_kernel_data.json"));
      CHECK(produced.utilization == loupe::test::mk::manifest_utilization(manifest));
      CHECK(produced.has_category == loupe::test::mk::manifest_has_multi_kernel(manifest));
    }
    ++compared;
  }
  CHECK(compared == static_cast<int>(runs.size()));
}

TEST_CASE("mi210 GPU-only trace: data file and gpu_utilization although TraceLens crashed",
          "[pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  const fs::path trace =
      shared / "data" / "traces" / "mi210" / "gpu_only_trace" / "gpu_only_trace.json.gz";
  const fs::path csv =
      shared / "data" / "reference" / "mi210_gpu_only" / "perf_report_csvs" / "gpu_timeline.csv";
  const auto produced = loupe::test::mk::produce(trace);

  // gpu_utilization: what Step 2 would have read from TraceLens's own gpu_timeline.csv.
  CHECK(produced.utilization ==
        loupe::dump_python_json(
            loupe::core::prepare::gpu_utilization_from_csv(loupe::test::mk::read_file(csv))));

  // Step 4.5 (ALL GPU events) equals the perf report timeline here: a GPU-only trace's
  // timeline already uses every GPU event.
  const loupe::Json& overlap = *produced.data.find("overlap_analysis");
  const auto us = [&](const char* key) { return overlap.find(key)->as_double(); };
  CHECK(us("total_time_us") == Approx(5979.50).margin(0.005));
  CHECK(us("computation_time_us") == Approx(5343.37).margin(0.005));
  CHECK(us("total_comm_time_us") == 0.0);
  CHECK(us("total_memcpy_time_us") == 0.0);
  CHECK(produced.data_text.find("\"error\"") == std::string::npos);
}
