#include "loupe/compute/finding_facts.hpp"
#include "loupe/compute/json_fields.hpp"

namespace loupe::compute {

std::string lead_operation_name(const FindingContext& f) {
  const Json& members = field(&f.finding, "members");
  if (members.is_array() && members.size() > 0) {
    const Json& name = field(&members.as_array()[0], "operation");
    if (name.is_string()) return name.as_string();
  }
  return field_text(dominant_operation(f), "name");
}

std::string efficiency_phrase(const Json* op) {
  const Json& eff = field(op, "efficiency");
  const Json& pct = field(&eff, "efficiency_percent");
  const std::string bound = field_text(&eff, "bound_type");
  if (!pct.is_number()) {
    return "efficiency against the roofline cannot be computed (no performance model), so its "
           "bound type is unknown";
  }
  if (bound == "compute") {
    return fixed2(pct.as_double()) + "% of the " + jnum(field(&eff, "resolved_peak_maf")) +
           " TFLOPS roofline, compute-bound";
  }
  if (bound == "memory") {
    return fixed2(pct.as_double()) + "% of the " + jnum(field(&eff, "resolved_peak_hbm_bw")) +
           " TB/s roofline, memory-bound";
  }
  return fixed2(pct.as_double()) + "% of its roofline, bound type unknown";
}

std::string measured_facts(const FindingContext& f, const std::string& what) {
  const Json* op = dominant_operation(f);
  const std::string kernel = field_text(op, "kernel_name_trunc");
  std::string out = "`" + lead_operation_name(f) + "`" + (what.empty() ? "" : " (" + what + ")") +
                    " runs " + (kernel.empty() ? std::string("its kernels") : "`" + kernel + "`") +
                    " from " + f.library() + "; " + std::to_string(f.member_count()) +
                    " signature(s) take " + f.total_time_ms() + " ms of measured kernel time (" +
                    f.total_e2e_percent() + "% of E2E GPU time); " + efficiency_phrase(op) + ".";
  return out;
}

}  // namespace loupe::compute
