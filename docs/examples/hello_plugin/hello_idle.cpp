// A minimal Loupe analyzer: reports how much of the profiled GPU time was idle, from the
// manifest's gpu_utilization block. One class, one registration macro.
#include <array>
#include <cstdio>
#include <string>

#include "loupe/plugin.hpp"

namespace {

std::string percent(double value) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.1f%%", value);
  return buf;
}

class HelloIdle {
 public:
  static constexpr const char* name = "hello_idle";
  static constexpr const char* version = "1.0.0";
  static constexpr const char* description = "Reports GPU idle time from the manifest";
  static constexpr loupe::Tier tier = loupe::Tier::System;
  static constexpr std::array<const char*, 1> categories{"hello_idle"};
  static constexpr std::array<const char*, 0> reads{};

  void analyze(loupe::AnalysisContext& ctx) {
    namespace fd = loupe::findings;
    const auto manifest = ctx.model().document("category_data/category_manifest.json");
    const auto utilization = manifest["gpu_utilization"];
    const double idle = utilization["idle_time_percent"].as_double();
    const double total_ms = utilization["total_time_ms"].as_double();

    loupe::Json metrics = loupe::Json::object();
    metrics["category"] = "hello_idle";
    if (!utilization.is_object() || !(idle >= 0.0)) {
      // Bad input: say which file and what is wrong; the host writes the ERROR outputs.
      ctx.report_error(
          "category_data/category_manifest.json: no numeric "
          "gpu_utilization.idle_time_percent");
      return;
    }
    metrics["status"] = "OK";
    metrics["idle_time_percent"] = idle;
    metrics["total_time_ms"] = total_ms;
    ctx.emit_metrics(metrics);

    fd::Document doc;
    doc.style = fd::Style::System;
    doc.category = "hello_idle";
    doc.title = "GPU Idle Time";
    doc.sections.push_back({"Overview",
                            {fd::paragraph("The GPU was idle for " + percent(idle) + " of the " +
                                           std::to_string(total_ms) + " ms profiled.")}});
    if (idle > 15.0) {
      fd::Recommendation card;
      card.title = "GPU idle for " + percent(idle) + " of the trace";
      card.insight = "No GPU kernel ran for " + percent(idle) + " of the profiled time.";
      card.action = "Look for host-side stalls between kernel launches.";
      doc.recommendations.push_back(card);
      fd::Detail detail;
      detail.rank = 1;
      detail.title = card.title;
      detail.identification = "Idle time above 15% (source: `category_manifest.json`).";
      detail.data.push_back(fd::table({{"Metric", "Value"}, {{"Idle", percent(idle)}}}));
      doc.details.push_back(detail);
    }
    ctx.emit_findings(doc);
  }
};

}  // namespace

LOUPE_REGISTER_PLUGIN(HelloIdle)
