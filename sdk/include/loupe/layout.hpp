// The analysis directory's layout, in one place: where the manifest, each category's tables,
// metrics and findings, and the run's own outputs live (docs/architecture.md, "Pieces and where
// they live"). Host and plugins name these files only through it.
#pragma once

#include <string>
#include <string_view>

namespace loupe::layout {

inline constexpr const char* kCategoryDataDir = "category_data";
inline constexpr const char* kMetadataDir = "metadata";
inline constexpr const char* kComputeFindingsDir = "category_findings";
inline constexpr const char* kSystemFindingsDir = "system_findings";

inline constexpr const char* kManifest = "category_data/category_manifest.json";
inline constexpr const char* kRunRecord = "loupe_run.json";
inline constexpr const char* kRunFindings = "findings.json";
inline constexpr const char* kPriorityData = "priority_data.json";

// Trace 1's perf report folder: "perf_report_csvs/", or "perf_report_trace1_csvs/" in a
// comparative run (trace 2's is "perf_report_trace2_csvs/").
inline std::string trace1_report_dir(bool comparative) {
  return comparative ? "perf_report_trace1_csvs/" : "perf_report_csvs/";
}

inline constexpr const char* kMetricsSuffix = "_metrics.json";
inline constexpr const char* kFindingsSuffix = "_findings.md";

// "category_data/<stem>_metrics.json": a category's metrics (stem: the category, or
// "<category>.<plugin>" for a contributing analyzer).
inline std::string metrics_path(std::string_view stem) {
  return std::string(kCategoryDataDir) + "/" + std::string(stem) + kMetricsSuffix;
}

// "category_findings/<stem>_findings.md" (compute tier) or "system_findings/<stem>_findings.md".
inline std::string findings_path(bool compute_tier, std::string_view stem) {
  return std::string(compute_tier ? kComputeFindingsDir : kSystemFindingsDir) + "/" +
         std::string(stem) + kFindingsSuffix;
}

}  // namespace loupe::layout
