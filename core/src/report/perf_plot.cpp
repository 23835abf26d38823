#include "loupe/core/report/perf_plot.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "loupe/core/util/text_escape.hpp"
#include "report_text.hpp"

namespace loupe::core {

namespace {

constexpr const char* kPalette[] = {"#e74c3c", "#e67e22", "#f1c40f", "#2ecc71",
                                    "#9b59b6", "#1abc9c", "#e84393", "#3498db"};
constexpr const char* kRestColor = "#aab7c4";

using report_detail::fixed;

std::string xml(const std::string& s) { return escape_markup(s); }

}  // namespace

std::vector<PlotSegment> perf_breakdown(const Json& manifest) {
  std::vector<PlotSegment> segments;
  const Json* util = manifest.find("gpu_utilization");
  const Json* total = util == nullptr ? nullptr : util->find("total_time_ms");
  if (total == nullptr || !total->is_number() || !(total->as_double() > 0)) return segments;
  const double baseline = total->as_double();
  const Json* categories = manifest.find("categories");
  double kernel_sum = 0.0;
  if (categories != nullptr && categories->is_array()) {
    for (const auto& c : categories->as_array()) {
      const Json* tier = c.find("tier");
      const Json* name = c.find("name");
      const Json* time = c.find("gpu_kernel_time_ms");
      if (tier == nullptr || !tier->is_string() || tier->as_string() != "compute_kernel") continue;
      if (name == nullptr || !name->is_string() || time == nullptr || !time->is_number()) continue;
      if (!(time->as_double() > 0)) continue;
      std::string label = name->as_string();
      if (!label.empty() && label[0] >= 'a' && label[0] <= 'z')
        label[0] = static_cast<char>(label[0] - 32);
      segments.push_back({label, time->as_double(), 0.0, ""});
      kernel_sum += time->as_double();
    }
  }
  std::stable_sort(
      segments.begin(), segments.end(),
      [](const PlotSegment& a, const PlotSegment& b) { return a.time_ms > b.time_ms; });
  for (size_t i = 0; i < segments.size(); ++i) segments[i].color = kPalette[i % 8];
  if (baseline - kernel_sum > 0)
    segments.push_back({"Non-computing", baseline - kernel_sum, 0.0, kRestColor});
  for (auto& s : segments) s.percent = s.time_ms / baseline * 100.0;
  return segments;
}

std::string perf_breakdown_svg(const std::vector<PlotSegment>& segments, const std::string& title) {
  if (segments.empty()) return {};
  double total = 0.0;
  for (const auto& s : segments) total += s.time_ms;
  constexpr int kWidth = 960;
  constexpr int kLeft = 20;
  constexpr int kBarWidth = kWidth - 2 * kLeft;
  constexpr int kBarTop = 44;
  constexpr int kBarHeight = 56;
  constexpr int kLegendTop = kBarTop + kBarHeight + 46;
  constexpr int kRowHeight = 22;
  constexpr int kColumns = 3;
  const int rows = static_cast<int>((segments.size() + kColumns - 1) / kColumns);
  const int height = kLegendTop + rows * kRowHeight + 10;
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth << "\" height=\"" << height
      << "\" viewBox=\"0 0 " << kWidth << " " << height
      << "\" font-family=\"Helvetica, Arial, sans-serif\" role=\"img\" aria-label=\"" << xml(title)
      << "\">\n";
  svg << "<title>" << xml(title) << "</title>\n";
  svg << "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  svg << "<text x=\"" << kWidth / 2
      << "\" y=\"26\" text-anchor=\"middle\" font-size=\"16\" "
         "font-weight=\"bold\">"
      << xml(title) << "</text>\n";
  double x = kLeft;
  for (const auto& s : segments) {
    const double w = s.time_ms / total * kBarWidth;
    svg << "<rect class=\"segment\" x=\"" << fixed(x, 2) << "\" y=\"" << kBarTop << "\" width=\""
        << fixed(w, 2) << "\" height=\"" << kBarHeight << "\" fill=\"" << s.color
        << "\" stroke=\"#ffffff\" stroke-width=\"0.9\"><title>" << xml(s.label) << ": "
        << fixed(s.time_ms, 3) << " ms (" << fixed(s.percent, 1) << "%)</title></rect>\n";
    x += w;
  }
  // The time axis: 0, the midpoint and the total, in ms.
  const int axis_y = kBarTop + kBarHeight + 16;
  for (const double f : {0.0, 0.5, 1.0}) {
    const double ax = kLeft + f * kBarWidth;
    svg << "<text x=\"" << fixed(ax, 1) << "\" y=\"" << axis_y
        << "\" font-size=\"11\" text-anchor=\""
        << (f == 0.0   ? "start"
            : f == 1.0 ? "end"
                       : "middle")
        << "\">" << fixed(f * total, 2) << "</text>\n";
  }
  svg << "<text x=\"" << kWidth / 2 << "\" y=\"" << axis_y + 16
      << "\" font-size=\"11\" text-anchor=\"middle\">GPU time (ms)</text>\n";
  for (size_t i = 0; i < segments.size(); ++i) {
    const int col = static_cast<int>(i % kColumns);
    const int row = static_cast<int>(i / kColumns);
    const int lx = kLeft + col * (kBarWidth / kColumns);
    const int ly = kLegendTop + row * kRowHeight;
    svg << "<rect x=\"" << lx << "\" y=\"" << ly - 11 << "\" width=\"12\" height=\"12\" fill=\""
        << segments[i].color << "\"/>\n";
    svg << "<text class=\"legend\" x=\"" << lx + 18 << "\" y=\"" << ly << "\" font-size=\"12\">"
        << xml(segments[i].label) << " \xE2\x80\x94 " << fixed(segments[i].time_ms, 1) << " ms ("
        << fixed(segments[i].percent, 1) << "%)</text>\n";
  }
  svg << "</svg>\n";
  return svg.str();
}

}  // namespace loupe::core
