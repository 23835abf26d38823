#include <algorithm>
#include <array>
#include <cmath>

#include "assessments.hpp"
#include "input_values.hpp"

namespace loupe::multi_kernel {

namespace {

struct Check {
  const char* data_key;
  const char* timeline_type;
  const char* label;
};

constexpr std::array<Check, 4> kChecks{{
    {"computation_time_us", "computation_time", "Computation time"},
    {"exposed_comm_time_us", "exposed_comm_time", "Exposed communication time"},
    {"exposed_memcpy_time_us", "exposed_memcpy_time", "Exposed memcpy time"},
    {"total_time_us", "total_time", "Total GPU time"},
}};

}  // namespace

CrossValidation cross_validate(const Json& overlap, const Timeline& timeline) {
  CrossValidation result;
  const auto by_type = timeline_by_type(timeline);
  if (!by_type) {
    result.json = Json();
    return result;
  }
  result.performed = true;
  result.status = "PASS";
  const std::string overlap_path = std::string(kDataFile) + ": overlap_analysis";
  Json checks = Json::array();
  Json warnings = Json::array();
  for (const Check& check : kChecks) {
    const double mk =
        py_div(number_member(overlap, check.data_key, PyNumber::integer(0), overlap_path), 1000.0);
    Json entry = Json::object();
    entry["metric"] = check.label;
    const auto row = by_type->find(check.timeline_type);
    if (row == by_type->end()) {
      entry["status"] = "SKIP";
      entry["reason"] = std::string(check.timeline_type) + " not found in gpu_timeline.csv";
      ++result.skip_count;
      checks.push_back(std::move(entry));
      continue;
    }
    if (row->second.empty_time) {
      throw InputProblem(timeline.file + ": 'time ms' of the '" + row->first +
                         "' row is empty (NaN), expected a number");
    }
    const PyNumber tl = row->second.time_ms;
    if (tl.value() == 0.0 && mk == 0.0) {
      entry["status"] = "PASS";
      entry["mk_ms"] = 0;
      entry["tl_ms"] = 0;
      entry["diff_ms"] = 0;
      checks.push_back(std::move(entry));
      continue;
    }
    const double diff = std::fabs(mk - tl.value());
    const double ref = std::max({mk, tl.value(), 1e-6});
    const double diff_pct = diff / ref * 100;
    const bool pass = diff_pct <= kCrossValidationTolerance;
    entry["mk_ms"] = py_round(PyNumber::real(mk), 3).to_json();
    entry["tl_ms"] = py_round(tl, 3).to_json();
    entry["diff_ms"] = py_round(PyNumber::real(diff), 3).to_json();
    entry["diff_pct"] = py_round(PyNumber::real(diff_pct), 2).to_json();
    entry["status"] = pass ? "PASS" : "WARN";
    if (!pass) {
      result.status = "WARN";
      ++result.warn_count;
      warnings.push_back(std::string(check.label) + ": multi_kernel_data=" + fixed(mk, 3) +
                         "ms vs gpu_timeline=" + fixed(tl.value(), 3) + "ms (diff " +
                         fixed(diff_pct, 1) + "%)");
    }
    checks.push_back(std::move(entry));
  }
  Json j = Json::object();
  j["status"] = result.status;
  j["checks"] = std::move(checks);
  j["warnings"] = std::move(warnings);
  result.json = std::move(j);
  return result;
}

}  // namespace loupe::multi_kernel
