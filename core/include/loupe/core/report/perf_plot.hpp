// perf_breakdown.svg: the run's GPU time as one horizontal stacked bar, compute categories
// first (largest first), then the non-computing rest, each with its time and share (the data
// of TraceLens's performance plot; docs/report.md, "perf_breakdown.svg").
#pragma once

#include <string>
#include <vector>

#include "loupe/json_value.hpp"

namespace loupe::core {

inline constexpr const char* kPerfPlotFile = "perf_breakdown.svg";

struct PlotSegment {
  std::string label;  // the category name with a capital first letter, or "Non-computing"
  double time_ms = 0.0;
  double percent = 0.0;  // of the run's GPU time
  std::string color;     // "#rrggbb"
};

// The segments from category_manifest.json: compute_kernel categories with a positive
// gpu_kernel_time_ms, descending (manifest order on ties), then the rest of total_time_ms.
// Empty when the manifest has no positive total time or nothing to plot.
std::vector<PlotSegment> perf_breakdown(const Json& manifest);

inline constexpr const char* kPerfPngFile = "perf_improvement.png";

// The same bar as a PNG, drawn with cairo (TraceLens's perf_improvement.png); "" for no segments
// or when Loupe was built without cairo (perf_png_available()).
std::string perf_breakdown_png(const std::vector<PlotSegment>& segments, const std::string& title);
bool perf_png_available();

// A self-contained SVG (no scripts, no external references); "" for no segments.
std::string perf_breakdown_svg(const std::vector<PlotSegment>& segments, const std::string& title);

}  // namespace loupe::core
