// Spec §4.7 (patterns) and §4.8 (success layout; key order is normative).
#include <cctype>

#include "analysis.hpp"
#include "loupe/text.hpp"

namespace loupe::multi_kernel {

namespace {

Json patterns_json(const std::vector<Pattern>& patterns) {
  Json out = Json::array();
  for (const auto& p : patterns) {
    Json j = Json::object();
    j["pattern"] = p.id;
    j["description"] = p.description;
    out.push_back(std::move(j));
  }
  return out;
}

Json time_base_json(const AnalysisResult& result) {
  Json j = Json::object();
  j["population"] = result.denominator_population;
  j["all_gpu_events_total_time_ms"] =
      result.all_events_span_ms ? py_round(PyNumber::real(*result.all_events_span_ms), 3).to_json()
                                : Json();
  j["linked_gpu_events_total_time_ms"] = result.timeline_source == TotalTime::Source::TimelineRow
                                             ? py_round(result.timeline_total_ms, 3).to_json()
                                             : Json();
  j["note"] =
      "multi_kernel_data.json covers all GPU events; gpu_timeline.csv covers only GPU events "
      "linked to a CPU launch";
  return j;
}

}  // namespace

std::vector<Pattern> detect_patterns(const AnalysisResult& result) {
  std::vector<Pattern> patterns;
  for (const auto& issue : result.memcpy.issues) {
    patterns.push_back({"high_" + text::ascii_lower(issue.direction) + "_memcpy", issue.description,
                        issue.direction});
  }
  if (result.blocking.flagged) {
    patterns.push_back(
        {"nccl_blocking_compute", result.blocking.json.find("description")->as_string(), ""});
  }
  if (result.overlap.flagged) {
    patterns.push_back(
        {"poor_comm_compute_overlap", result.overlap.json.find("description")->as_string(), ""});
  }
  return patterns;
}

Json build_success_metrics(const DataSections& sections, const AnalysisResult& result) {
  const std::string summary_path = std::string(kDataFile) + ": memcpy_summary";
  const std::string nccl_path = std::string(kDataFile) + ": nccl_summary";
  Json m = Json::object();
  m["status"] = "SUCCESS";
  m["total_time_ms"] = py_round(result.denominator_ms, 3).to_json();
  if (result.corrected) m["time_base"] = time_base_json(result);

  Json memcpy_summary = Json::object();
  memcpy_summary["total_count"] =
      number_member(sections.memcpy_summary, "total_count", PyNumber::integer(0), summary_path)
          .to_json();
  memcpy_summary["total_time_ms"] =
      py_round(PyNumber::real(py_div(number_member(sections.memcpy_summary, "total_time_us",
                                                   PyNumber::integer(0), summary_path),
                                     1000.0)),
               3)
          .to_json();
  const Json* by_direction = sections.memcpy_summary.find("by_direction");
  memcpy_summary["by_direction"] = by_direction != nullptr ? *by_direction : Json::object();
  m["memcpy_summary"] = std::move(memcpy_summary);

  Json nccl_summary = Json::object();
  nccl_summary["total_count"] =
      number_member(sections.nccl_summary, "total_count", PyNumber::integer(0), nccl_path)
          .to_json();
  nccl_summary["total_time_ms"] =
      py_round(PyNumber::real(py_div(number_member(sections.nccl_summary, "total_time_us",
                                                   PyNumber::integer(0), nccl_path),
                                     1000.0)),
               3)
          .to_json();
  const Json* top_ops = sections.nccl_summary.find("top_ops");
  nccl_summary["top_ops"] = top_ops != nullptr ? *top_ops : Json::array();
  m["nccl_summary"] = std::move(nccl_summary);

  m["overlap_analysis"] = sections.overlap;
  m["memcpy_assessment"] = result.memcpy.json;
  m["nccl_blocking_assessment"] = result.blocking.json;
  m["overlap_assessment"] = result.overlap.json;
  m["patterns_detected"] = patterns_json(result.patterns);
  m["cross_validation"] = result.cross.json;
  if (result.corrected && result.scope == Scope::Standalone) {
    m["sync_idle_assessment"] = sync_idle_json(result.sync_idle, result.denominator_ms.value());
  }
  m["impact_estimates"] = Json::array();
  return m;
}

}  // namespace loupe::multi_kernel
