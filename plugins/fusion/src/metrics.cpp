#include "metrics.hpp"

#include <algorithm>

#include "framework.hpp"
#include "loupe/python_format.hpp"

namespace loupe::fusion {

Json error_metrics(const std::string& message) {
  Json j = Json::object();
  j["category"] = "kernel_fusion";
  j["status"] = "ERROR";
  j["error"] = message;
  return j;
}

Json no_data_metrics() {
  Json j = Json::object();
  j["category"] = "kernel_fusion";
  j["status"] = "NO_DATA";
  j["candidate_count"] = 0;
  j["impact_estimates"] = Json::array();
  return j;
}

Json estimate_json(const Estimate& e, const Candidate& c, bool with_extras) {
  Json j = Json::object();
  j["operation"] = e.operation;
  j["category"] = "kernel_fusion";
  j["type"] = "kernel_fusion";
  j["impact_score"] = e.impact_mid;
  j["impact_score_low"] = e.impact_low;
  j["impact_score_high"] = e.impact_high;
  j["estimation"] = e.estimation;
  j["bound_type"] = e.bound_type;
  j["time_ms"] = e.time_ms;
  j["instance_count"] = e.instance_count;
  j["kernel_count"] = e.kernel_count;
  j["modeled_kernel_count"] = e.modeled_count;
  if (e.comparative) j["delta_kernel_count"] = e.delta_kernel_count;
  j["confidence"] = e.confidence.level;
  Json names = Json::array();
  for (const auto& k : e.kernels) names.push_back(k.name);
  if (with_extras) {
    // M1: the kernels of the other shape groups are counted too, so they are named too.
    std::vector<std::string> listed;
    for (const auto& k : e.kernels) listed.push_back(k.name);
    for (const auto& g : e.groups) {
      for (const auto& name : g.kernel_names) {
        if (std::find(listed.begin(), listed.end(), name) != listed.end()) continue;
        listed.push_back(name);
        names.push_back(name);
      }
    }
  }
  j["affected_gpu_kernels"] = std::move(names);
  j["fusion_type"] = e.fusion_type;
  if (e.warning) j["warning"] = *e.warning;
  if (with_extras) {
    j["candidate_index"] = c.file_index;
    j["source"] = c.source;
    // M1: what time_ms measures and the saving in ms the findings quote.
    j["framework"] = framework_name(detect_framework(c).framework);  // F1
    j["time_source"] = time_source_name(e.time_source);
    j["measured_instance_count"] = e.measured_instances;
    j["estimated_savings_ms"] = py::round_half_even(e.savings_mid_ms, 3);
    j["estimated_savings_ms_high"] = py::round_half_even(e.savings_high_ms, 3);
    if (!e.groups.empty()) {
      Json groups = Json::array();
      for (const auto& g : e.groups) {
        Json item = Json::object();
        item["instance_count"] = g.instances;
        item["time_ms"] = py::round_half_even(g.time_ms, 3);
        item["savings_ms_high"] = py::round_half_even(g.savings_high_ms, 3);
        groups.push_back(std::move(item));
      }
      j["instance_groups"] = std::move(groups);
    }
  }
  return j;
}

Json kernel_map(const std::vector<Estimate>& estimates, bool matrix_kernels) {
  Json map = Json::object();
  for (const auto& e : estimates) {
    if (e.confidence.level != "high") continue;
    for (const auto& k : e.kernels) {
      if (k.name.empty()) continue;
      if (!matrix_kernels && is_matrix(k)) continue;
      map[k.name] = e.operation;
    }
  }
  return map;
}

Json ok_metrics(const OkMetricsInput& in) {
  const auto& candidates = *in.candidates;
  const auto& estimates = *in.estimates;
  double total_us = 0.0;
  for (const auto& c : candidates) total_us += c.total_us.value_or(0);

  Json j = Json::object();
  j["category"] = "kernel_fusion";
  j["status"] = "OK";
  j["total_time_ms"] = py::round_half_even(total_us / 1000, 3);
  j["candidate_count"] = candidates.size();
  j["estimated_count"] = estimates.size();
  if (estimates.empty()) {
    j["total_impact_score"] = 0;  // round(0, 2) of Python's int 0
  } else {
    double total_impact = 0.0;
    for (const auto& e : estimates) total_impact += e.impact_mid;
    j["total_impact_score"] = py::round_half_even(total_impact, 2);
  }
  j["platform"] = in.platform;
  j["peak_hbm_bw_tbs"] = in.peak_hbm_bw_tbs;
  Json list = Json::array();
  for (const auto& e : estimates)
    list.push_back(estimate_json(e, candidates.at(e.candidate), !in.compat));
  j["impact_estimates"] = std::move(list);
  Json warnings = Json::array();
  for (const auto& e : estimates) {
    if (e.warning && !e.warning->empty()) warnings.push_back(*e.warning);
  }
  if (warnings.size() > 0) j["warnings"] = std::move(warnings);
  j["high_confidence_kernel_map"] = kernel_map(estimates, in.compat);

  if (!in.compat) {
    Json rejected = Json::array();
    if (in.rejected != nullptr) {
      for (const auto& r : *in.rejected) {
        const Candidate& c = candidates.at(r.candidate);
        Json item = Json::object();
        item["operation"] = r.operation;
        item["module_name"] = c.module_name;
        item["candidate_index"] = c.file_index;
        item["stage"] = "decision";
        item["rule"] = r.rule;
        item["reason"] = r.reason;
        rejected.push_back(std::move(item));
      }
    }
    if (in.gate_rejections != nullptr) {
      for (const auto& g : *in.gate_rejections) {
        const Candidate& c = candidates.at(g.candidate);
        Json item = Json::object();
        item["operation"] = c.operation;
        item["module_name"] = c.module_name;
        item["candidate_index"] = c.file_index;
        item["stage"] = "gate";
        item["rule"] = g.rejection.rule;
        item["reason"] = g.rejection.reason;
        rejected.push_back(std::move(item));
      }
    }
    j["rejected_candidates"] = std::move(rejected);
  }
  return j;
}

}  // namespace loupe::fusion
