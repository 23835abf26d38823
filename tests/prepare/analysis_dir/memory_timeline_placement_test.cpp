// Default mode's memory_timeline.csv, built beside the preparation and placed into its directory
// afterwards: in trace 1's report folder, right after its gpu_timeline.csv, where the writing
// order and the model's file list expect it.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "loupe/core/prepare/analysis_dir_writer.hpp"

namespace lp = loupe::core::prepare;

namespace {

lp::PreparedDirectory directory_of(const std::vector<std::string>& paths) {
  lp::PreparedDirectory d;
  for (const auto& p : paths) d.files.push_back({p, "bytes of " + p, nullptr});
  return d;
}

std::vector<std::string> paths_of(const lp::PreparedDirectory& d) {
  std::vector<std::string> out;
  for (const auto& f : d.files) out.push_back(f.relative_path);
  return out;
}

}  // namespace

TEST_CASE("memory_timeline.csv goes right after trace 1's gpu_timeline.csv",
          "[prepare][analysis_dir]") {
  SECTION("standalone") {
    auto d =
        directory_of({"perf_report_csvs/gpu_timeline.csv", "category_data/multi_kernel_data.json",
                      "category_data/category_manifest.json"});
    lp::add_memory_timeline_csv(d, /*comparative=*/false, "device,ts_ns\ncuda:0,1\n");
    CHECK(paths_of(d) == std::vector<std::string>{"perf_report_csvs/gpu_timeline.csv",
                                                  "perf_report_csvs/memory_timeline.csv",
                                                  "category_data/multi_kernel_data.json",
                                                  "category_data/category_manifest.json"});
    CHECK(d.files[1].bytes == "device,ts_ns\ncuda:0,1\n");
    CHECK(d.files[1].table == nullptr);  // parsed by the model like any file it gets as bytes
  }
  SECTION("comparative: trace 1's folder, not trace 2's") {
    auto d = directory_of({"perf_report_trace1_csvs/gpu_timeline.csv",
                           "perf_report_trace1_csvs/diff_stats.csv",
                           "perf_report_trace2_csvs/gpu_timeline.csv"});
    lp::add_memory_timeline_csv(d, /*comparative=*/true, "x\n");
    CHECK(paths_of(d) == std::vector<std::string>{"perf_report_trace1_csvs/gpu_timeline.csv",
                                                  "perf_report_trace1_csvs/memory_timeline.csv",
                                                  "perf_report_trace1_csvs/diff_stats.csv",
                                                  "perf_report_trace2_csvs/gpu_timeline.csv"});
  }
  SECTION("a directory without a GPU timeline is left alone") {
    auto d = directory_of({"category_data/category_manifest.json"});
    lp::add_memory_timeline_csv(d, /*comparative=*/false, "x\n");
    CHECK(paths_of(d) == std::vector<std::string>{"category_data/category_manifest.json"});
  }
}
