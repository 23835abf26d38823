#include <algorithm>

#include "assessments.hpp"
#include "input_values.hpp"
#include "loupe/python_format.hpp"

namespace loupe::multi_kernel {

namespace {

const std::string kSummaryPath = std::string(kDataFile) + ": memcpy_summary";

std::string transfers_word(const PyNumber& count, bool corrected) {
  if (corrected && count.value() == 1.0) return "transfer";
  return "transfers";
}

// A percentage that never prints a flagged value as equal to a threshold it crossed.
std::string share_text(double percent) {
  const std::string a = fixed_apart_from(percent, kMemcpyShareThreshold, 2);
  const std::string b = fixed_apart_from(percent, kCountRuleMinShare, 2);
  return a.size() >= b.size() ? a : b;
}

Json issue_json(const MemcpyIssue& issue, const DirectionStats& stats, bool corrected) {
  Json j = Json::object();
  j["direction"] = issue.direction;
  j["count"] = issue.count.to_json();
  j["time_ms"] = py_round(PyNumber::real(issue.time_ms), 3).to_json();
  j["percent_of_total"] = py_round(PyNumber::real(issue.percent), 2).to_json();
  j["avg_bytes"] = stats.avg_bytes;
  if (corrected) {
    Json by = Json::array();
    if (issue.by_time_share) by.push_back("time_share");
    if (issue.by_count) by.push_back("count");
    if (issue.by_link) by.push_back("host_link");
    j["flagged_by"] = std::move(by);
    if (issue.achieved_gbps && issue.link_gbps) {
      j["achieved_gbps"] = py::round_half_even(*issue.achieved_gbps, 2);
      j["host_link_gbps"] = *issue.link_gbps;
      j["host_link_percent"] =
          py::round_half_even(*issue.achieved_gbps / *issue.link_gbps * 100, 2);
    }
  }
  j["description"] = issue.description;
  return j;
}

}  // namespace

std::vector<DirectionStats> read_directions(const Json& memcpy_summary) {
  const Json by_direction = object_member_strict(memcpy_summary, "by_direction", kSummaryPath);
  const std::string where = kSummaryPath + ".by_direction";
  std::vector<DirectionStats> out;
  for (const char* name : {"D2H", "H2D", "D2D", "other"}) {
    DirectionStats stats;
    stats.direction = name;
    stats.present = by_direction.find(name) != nullptr;
    const Json info = object_member_strict(by_direction, name, where);
    const std::string info_where = where + "." + name;
    stats.count = number_member(info, "count", PyNumber::integer(0), info_where);
    stats.total_time_us = number_member(info, "total_time_us", PyNumber::integer(0), info_where);
    if (const Json* avg = info.find("avg_bytes")) stats.avg_bytes = *avg;
    if (const Json* bytes = info.find("total_bytes"); bytes != nullptr && bytes->is_number()) {
      stats.total_bytes = std::max(0.0, bytes->as_double());
    }
    out.push_back(std::move(stats));
  }
  return out;
}

MemcpyAssessment assess_memcpy(const Json& memcpy_summary, PyNumber total_time_ms, bool corrected,
                               std::optional<double> host_link_gbps) {
  MemcpyAssessment result;
  result.directions = read_directions(memcpy_summary);
  result.total_count =
      number_member(memcpy_summary, "total_count", PyNumber::integer(0), kSummaryPath);
  const PyNumber total_us =
      number_member(memcpy_summary, "total_time_us", PyNumber::integer(0), kSummaryPath);
  result.denominator_ms = total_time_ms.value();
  if (!(total_time_ms.value() > 0.0)) {
    result.json = Json::object();
    result.json["flagged"] = false;
    result.json["details"] =
        corrected ? "No GPU time span available" : "No timeline data available";
    return result;
  }
  result.evaluated = true;
  result.total_ms = py_div(total_us, 1000.0);
  result.percent = result.total_ms / total_time_ms.value() * 100;

  const size_t assessed = corrected ? result.directions.size() : 2;  // compat: D2H, H2D only
  Json issues = Json::array();
  for (size_t d = 0; d < assessed; ++d) {
    const DirectionStats& stats = result.directions[d];
    const double dir_ms = py_div(stats.total_time_us, 1000.0);
    const double dir_pct = dir_ms / total_time_ms.value() * 100;
    if (stats.count.value() == 0.0) continue;
    MemcpyIssue issue;
    issue.by_time_share = dir_pct > kMemcpyShareThreshold;
    issue.by_count = stats.count.value() > static_cast<double>(kMemcpyCountThreshold);
    if (corrected) issue.by_count = issue.by_count && dir_pct > kCountRuleMinShare;
    // Copies between host and device memory run at the host link's speed (never HBM's): bytes
    // over time against the link's peak in that direction.
    const bool host_side = stats.direction == "H2D" || stats.direction == "D2H";
    if (corrected && host_side && host_link_gbps && *host_link_gbps > 0 && stats.total_bytes > 0 &&
        dir_ms > 0) {
      issue.bytes = stats.total_bytes;
      issue.achieved_gbps = stats.total_bytes / (dir_ms * 1e6);  // bytes per ns = GB/s
      issue.link_gbps = *host_link_gbps;
      issue.by_link = dir_pct > kCountRuleMinShare &&
                      *issue.achieved_gbps / *host_link_gbps * 100 < kSlowLinkPercent;
    }
    if (!issue.by_time_share && !issue.by_count && !issue.by_link) continue;
    issue.direction = stats.direction;
    issue.count = stats.count;
    issue.time_ms = dir_ms;
    issue.percent = dir_pct;
    issue.description = stats.direction + " memcpy: " + stats.count.str() + " " +
                        transfers_word(stats.count, corrected) + ", " + fixed(dir_ms, 3) + "ms (" +
                        (corrected ? share_text(dir_pct) : fixed(dir_pct, 2)) + "% of total)";
    if (issue.achieved_gbps && issue.link_gbps) {
      issue.description += ", " + fixed(*issue.achieved_gbps, 2) + " GB/s of the " +
                           fixed(*issue.link_gbps, 0) + " GB/s host link";
    }
    issues.push_back(issue_json(issue, stats, corrected));
    result.issues.push_back(std::move(issue));
  }
  result.flagged = !result.issues.empty();

  Json j = Json::object();
  j["flagged"] = result.flagged;
  j["total_count"] = result.total_count.to_json();
  j["total_time_ms"] = py_round(PyNumber::real(result.total_ms), 3).to_json();
  j["percent_of_total"] = py_round(PyNumber::real(result.percent), 2).to_json();
  if (corrected) {
    Json rules = Json::object();
    rules["directions"] = Json(Json::Array{"D2H", "H2D", "D2D", "other"});
    rules["time_share_percent_above"] = kMemcpyShareThreshold;
    rules["count_above"] = kMemcpyCountThreshold;
    rules["count_rule_needs_time_share_percent_above"] = kCountRuleMinShare;
    rules["host_link_percent_below"] = kSlowLinkPercent;
    rules["host_link_rule_needs_time_share_percent_above"] = kCountRuleMinShare;
    rules["host_link_gbps"] = host_link_gbps ? Json(*host_link_gbps) : Json();
    j["rules"] = std::move(rules);
  }
  j["issues"] = std::move(issues);
  result.json = std::move(j);
  return result;
}

}  // namespace loupe::multi_kernel
