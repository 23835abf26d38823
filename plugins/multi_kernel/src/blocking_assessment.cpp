#include "assessments.hpp"
#include "input_values.hpp"

namespace loupe::multi_kernel {

BlockingAssessment assess_blocking(const Json& overlap, bool corrected) {
  BlockingAssessment result;
  const PyNumber rounded_pct =
      number_member(overlap, "comm_percent_of_total", PyNumber::integer(0), kOverlapPath);
  const PyNumber total_comm =
      number_member(overlap, "total_comm_time_us", PyNumber::integer(0), kOverlapPath);
  const PyNumber exposed =
      number_member(overlap, "exposed_comm_time_us", PyNumber::integer(0), kOverlapPath);
  const PyNumber span = number_member(overlap, "total_time_us", PyNumber::integer(0), kOverlapPath);

  if (total_comm.value() == 0.0) {
    result.json = Json::object();
    result.json["flagged"] = false;
    result.json["details"] = "No communication events detected";
    return result;
  }
  result.evaluated = true;
  // TraceLens compares the 2-dp value stored in the data file; the corrected mode recomputes
  // the share from the times so that 5.004 % is above 5 %.
  PyNumber pct = rounded_pct;
  if (corrected && span.value() > 0.0) {
    pct = PyNumber::real(exposed.value() / span.value() * 100);
  }
  result.percent = pct.value();
  result.flagged = pct.value() > kExposedCommThreshold;
  result.exposed_ms = py_div(exposed, 1000.0);
  result.total_comm_ms = py_div(total_comm, 1000.0);

  Json j = Json::object();
  j["flagged"] = result.flagged;
  j["exposed_comm_time_ms"] = py_round(PyNumber::real(result.exposed_ms), 3).to_json();
  j["total_comm_time_ms"] = py_round(PyNumber::real(result.total_comm_ms), 3).to_json();
  j["exposed_percent_of_total"] = py_round(pct, 2).to_json();
  if (corrected) {
    j["percent_basis"] = span.value() > 0.0
                             ? "exposed_comm_time_us / total_time_us, unrounded"
                             : "comm_percent_of_total of multi_kernel_data.json (no span)";
  }
  const std::string shown =
      corrected ? fixed_apart_from(pct.value(), kExposedCommThreshold, 1) : fixed(pct.value(), 1);
  j["description"] = "Exposed (non-overlapped) communication: " + shown + "% of total GPU time";
  result.json = std::move(j);
  return result;
}

}  // namespace loupe::multi_kernel
