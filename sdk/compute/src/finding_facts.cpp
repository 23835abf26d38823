#include "loupe/compute/finding_facts.hpp"

namespace loupe::compute {

namespace {

const Json& member(const Json* object, std::string_view key) {
  static const Json kNull;
  const Json* v = object != nullptr && object->is_object() ? object->find(key) : nullptr;
  return v == nullptr ? kNull : *v;
}

std::string text(const Json* object, std::string_view key) {
  const Json& v = member(object, key);
  return v.is_string() ? v.as_string() : std::string();
}

}  // namespace

const Json* lead_operation(const FindingContext& f) {
  for (const Json* op : f.operations) {
    if (op != nullptr) return op;
  }
  return nullptr;
}

std::string lead_operation_name(const FindingContext& f) {
  const Json& members = member(&f.finding, "members");
  if (members.is_array() && members.size() > 0) {
    const Json& name = member(&members.as_array()[0], "operation");
    if (name.is_string()) return name.as_string();
  }
  return text(lead_operation(f), "name");
}

std::string efficiency_phrase(const Json* op) {
  const Json& eff = member(op, "efficiency");
  const Json& pct = member(&eff, "efficiency_percent");
  const std::string bound = text(&eff, "bound_type");
  if (!pct.is_number()) {
    return "efficiency against the roofline cannot be computed (no performance model), so its "
           "bound type is unknown";
  }
  if (bound == "compute") {
    return fixed2(pct.as_double()) + "% of the " + jnum(member(&eff, "resolved_peak_maf")) +
           " TFLOPS roofline, compute-bound";
  }
  if (bound == "memory") {
    return fixed2(pct.as_double()) + "% of the " + jnum(member(&eff, "resolved_peak_hbm_bw")) +
           " TB/s roofline, memory-bound";
  }
  return fixed2(pct.as_double()) + "% of its roofline, bound type unknown";
}

std::string measured_facts(const FindingContext& f, const std::string& what) {
  const Json* op = lead_operation(f);
  const std::string kernel = text(op, "kernel_name_trunc");
  std::string out = "`" + lead_operation_name(f) + "`" + (what.empty() ? "" : " (" + what + ")") +
                    " runs " + (kernel.empty() ? std::string("its kernels") : "`" + kernel + "`") +
                    " from " + f.library() + "; " + std::to_string(f.member_count()) +
                    " signature(s) take " + f.total_time_ms() + " ms of measured kernel time (" +
                    f.total_e2e_percent() + "% of E2E GPU time); " + efficiency_phrase(op) + ".";
  return out;
}

}  // namespace loupe::compute
