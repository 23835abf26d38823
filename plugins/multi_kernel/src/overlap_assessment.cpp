#include "assessments.hpp"
#include "input_values.hpp"

namespace loupe::multi_kernel {

OverlapAssessment assess_overlap(const Json& overlap, bool corrected) {
  OverlapAssessment result;
  const std::optional<PyNumber> stored_ratio =
      optional_number_member(overlap, "comm_overlap_ratio", kOverlapPath);
  const PyNumber total_comm =
      number_member(overlap, "total_comm_time_us", PyNumber::integer(0), kOverlapPath);
  if (!stored_ratio || total_comm.value() < kMinCommForOverlapUs) {
    result.json = Json::object();
    result.json["flagged"] = false;
    result.json["details"] = "Insufficient communication data for overlap analysis";
    return result;
  }
  result.evaluated = true;
  // TraceLens compares the ratio stored with 4 decimals; the corrected mode recomputes it
  // from the union times (1 - exposed / total communication).
  PyNumber ratio = *stored_ratio;
  const std::optional<PyNumber> exposed =
      optional_number_member(overlap, "exposed_comm_time_us", kOverlapPath);
  if (corrected && exposed && total_comm.value() > 0.0) {
    ratio = PyNumber::real(1 - exposed->value() / total_comm.value());
  }
  result.ratio = ratio.value();
  result.flagged = ratio.value() < kOverlapTarget;

  Json j = Json::object();
  j["flagged"] = result.flagged;
  j["overlap_ratio"] = py_round(ratio, 4).to_json();
  j["overlap_percent"] = py_round(py_mul(ratio, 100), 2).to_json();
  j["target_percent"] = 70;
  if (corrected) {
    j["ratio_basis"] = exposed ? "1 - exposed_comm_time_us / total_comm_time_us, unrounded"
                               : "comm_overlap_ratio of multi_kernel_data.json";
  }
  const std::string shown =
      corrected ? fixed_apart_from(ratio.value() * 100.0, kOverlapTargetPercent, 1) + "%"
                : percent_format(ratio.value(), 1);
  j["description"] = "Compute/communication overlap: " + shown + " (target > 70%)";
  result.json = std::move(j);
  return result;
}

}  // namespace loupe::multi_kernel
