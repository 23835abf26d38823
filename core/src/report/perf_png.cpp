#include "loupe/core/report/perf_plot.hpp"

#include "report_text.hpp"

#ifdef LOUPE_HAVE_CAIRO
#include <cairo.h>
#endif

namespace loupe::core {

#ifdef LOUPE_HAVE_CAIRO

namespace {

void set_color(cairo_t* cr, const std::string& hex) {
  const auto channel = [&](size_t at) {
    return static_cast<double>(std::stoi(hex.substr(at, 2), nullptr, 16)) / 255.0;
  };
  cairo_set_source_rgb(cr, channel(1), channel(3), channel(5));
}

cairo_status_t append(void* closure, const unsigned char* data, unsigned int length) {
  static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
  return CAIRO_STATUS_SUCCESS;
}

}  // namespace

std::string perf_breakdown_png(const std::vector<PlotSegment>& segments, const std::string& title) {
  if (segments.empty()) return {};
  constexpr int kWidth = 1200;
  constexpr double kLeft = 30;
  constexpr double kBarWidth = kWidth - 2 * kLeft;
  constexpr double kBarTop = 60;
  constexpr double kBarHeight = 70;
  constexpr double kLegendTop = kBarTop + kBarHeight + 70;
  constexpr double kRowHeight = 26;
  constexpr size_t kColumns = 3;
  const size_t rows = (segments.size() + kColumns - 1) / kColumns;
  const int height = static_cast<int>(kLegendTop + static_cast<double>(rows) * kRowHeight + 10);
  cairo_surface_t* surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, kWidth, height);
  cairo_t* cr = cairo_create(surface);
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_paint(cr);
  cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
  cairo_set_font_size(cr, 18);
  cairo_text_extents_t extents;
  cairo_text_extents(cr, title.c_str(), &extents);
  cairo_set_source_rgb(cr, 0.12, 0.18, 0.24);
  cairo_move_to(cr, (kWidth - extents.width) / 2, 34);
  cairo_show_text(cr, title.c_str());

  double total = 0;
  for (const auto& s : segments) total += s.time_ms;
  double x = kLeft;
  for (const auto& s : segments) {
    const double w = s.time_ms / total * kBarWidth;
    set_color(cr, s.color);
    cairo_rectangle(cr, x, kBarTop, w, kBarHeight);
    cairo_fill_preserve(cr);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_set_line_width(cr, 1);
    cairo_stroke(cr);
    x += w;
  }
  cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr, 13);
  cairo_set_source_rgb(cr, 0.12, 0.18, 0.24);
  for (const double f : {0.0, 0.5, 1.0}) {
    const std::string label = report_detail::fixed(f * total, 2);
    cairo_text_extents(cr, label.c_str(), &extents);
    const double anchor = kLeft + f * kBarWidth;
    const double lx = f == 0.0   ? anchor
                      : f == 1.0 ? anchor - extents.width
                                 : anchor - extents.width / 2;
    cairo_move_to(cr, lx, kBarTop + kBarHeight + 20);
    cairo_show_text(cr, label.c_str());
  }
  const char* axis = "GPU time (ms)";
  cairo_text_extents(cr, axis, &extents);
  cairo_move_to(cr, (kWidth - extents.width) / 2, kBarTop + kBarHeight + 40);
  cairo_show_text(cr, axis);
  for (size_t i = 0; i < segments.size(); ++i) {
    const double lx = kLeft + static_cast<double>(i % kColumns) * (kBarWidth / kColumns);
    const double ly = kLegendTop + static_cast<double>(i / kColumns) * kRowHeight;
    set_color(cr, segments[i].color);
    cairo_rectangle(cr, lx, ly - 12, 14, 14);
    cairo_fill(cr);
    cairo_set_source_rgb(cr, 0.12, 0.18, 0.24);
    cairo_move_to(cr, lx + 20, ly);
    const std::string text = segments[i].label + " \xE2\x80\x94 " +
                             report_detail::fixed(segments[i].time_ms, 1) + " ms (" +
                             report_detail::fixed(segments[i].percent, 1) + "%)";
    cairo_show_text(cr, text.c_str());
  }
  std::string png;
  const cairo_status_t status = cairo_surface_write_to_png_stream(surface, append, &png);
  cairo_destroy(cr);
  cairo_surface_destroy(surface);
  return status == CAIRO_STATUS_SUCCESS ? png : std::string();
}

bool perf_png_available() { return true; }

#else

std::string perf_breakdown_png(const std::vector<PlotSegment>&, const std::string&) { return {}; }

bool perf_png_available() { return false; }

#endif

}  // namespace loupe::core
