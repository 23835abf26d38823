// diff_stats.csv and trace 1's unified_perf_summary.csv (with the 7 comparison columns) equal
// what TraceLens's perf report wrote for the three comparative reference runs (MI300X arch,
// python frames in the tree, TraceLens's float times).
#include <catch2/catch.hpp>

#include <filesystem>
#include <optional>
#include <string>

#include "cli_runner.hpp"
#include "loupe/core/prepare/trace_diff.hpp"
#include "loupe/core/prepare/unified_perf_summary.hpp"
#include "loupe/core/trace/json_reader.hpp"
#include "prepare_test_support.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;
namespace lp = loupe::core::prepare;
namespace lt = loupe::core::trace;

namespace {

using LoadedTrace = loupe::test::TraceWithTree;

LoadedTrace load(const fs::path& path) { return loupe::test::load_with_report_tree(path); }

}  // namespace

TEST_CASE("TraceDiff outputs equal TraceLens's for the comparative reference runs",
          "[prepare][trace_diff][parity][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  const lp::perf::Arch arch = loupe::test::mi300x_arch();
  for (const char* test : {"test01_moe_fused_vs_unfused", "test02_attention_both_unfused",
                           "test03_attention_fused_vs_unfused"}) {
    INFO("comparative " << test);
    const fs::path traces = shared / "data/traces/unit_tests_comparative" / test;
    const fs::path expected = shared / "data/reference" / (std::string("comparative_utc_") + test) /
                              "perf_report_trace1_csvs";
    const LoadedTrace trace1 = load(traces / "trace1.json");
    const LoadedTrace trace2 = load(traces / "trace2.json");
    const auto comparison = lp::TraceComparison::compare({trace1.loaded.model, trace1.tree},
                                                         {trace2.loaded.model, trace2.tree});

    const std::optional<std::string> diff_stats = comparison.diff_stats_csv();
    REQUIRE(diff_stats.has_value());
    const std::string expected_diff = loupe::test::read_text(expected / "diff_stats.csv");
    if (*diff_stats != expected_diff) {
      FAIL_CHECK(
          "diff_stats.csv: " << loupe::test::first_csv_difference(*diff_stats, expected_diff));
    }

    const std::string summary =
        lp::unified_perf_summary_csv(trace1.loaded.model, trace1.tree, &arch, &comparison);
    const std::string expected_summary =
        loupe::test::read_text(expected / "unified_perf_summary.csv");
    if (summary != expected_summary) {
      FAIL_CHECK("unified_perf_summary.csv: " << loupe::test::first_csv_difference(
                     summary, expected_summary));
    }
  }
}

TEST_CASE("Without a comparison unified_perf_summary.csv has no comparison columns",
          "[prepare][trace_diff][parity][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  const lp::perf::Arch arch = loupe::test::mi300x_arch();
  const fs::path trace =
      shared / "data/traces/unit_tests_comparative/test02_attention_both_unfused/trace2.json";
  const LoadedTrace loaded = load(trace);
  const std::string summary = lp::unified_perf_summary_csv(loaded.loaded.model, loaded.tree, &arch);
  const std::string expected = loupe::test::read_text(
      shared /
      "data/reference/comparative_utc_test02_attention_both_unfused/perf_report_trace2_csvs/"
      "unified_perf_summary.csv");
  if (summary != expected) FAIL_CHECK(loupe::test::first_csv_difference(summary, expected));
}
