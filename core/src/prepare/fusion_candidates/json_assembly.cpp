// fusion_candidates.json objects in TraceLens's key order (spec docs/contracts/fusion.md §1.2).
#include "candidate.hpp"

namespace loupe::core::prepare::fusion {
namespace {

Json time_json(double us, bool integer) {
  return integer ? Json(static_cast<long long>(us)) : Json(us);
}

Json kernel_json(const CandidateKernel& k, bool sibling) {
  Json out = Json::object();
  if (sibling) {
    out["op"] = Json(k.op);
    out["kernel_type"] = Json(k.type);
    out["kernel_name"] = Json(k.name);
    out["dur_us"] = time_json(k.dur_us, k.dur_is_int);
    out["gpu_op_uid"] = Json(static_cast<long long>(k.gpu_op_uid));
  } else {
    out["name"] = Json(k.name);
    out["type"] = Json(k.type);
    out["dur_us"] = time_json(k.dur_us, k.dur_is_int);
    out["eligible"] = Json(k.eligible);
    out["gpu_op_uid"] = Json(static_cast<long long>(k.gpu_op_uid));
  }
  if (k.data_in_mb) out["data_in_mb"] = Json(*k.data_in_mb);
  if (k.data_out_mb) out["data_out_mb"] = Json(*k.data_out_mb);
  return out;
}

}  // namespace

Json standalone_candidate_json(const Candidate& c) {
  Json out = Json::object();
  out["module_name"] = Json(c.module_name);
  out["base_name"] = Json(c.base_name);
  out["parent_chain"] = string_array(c.parent_chain);
  out["instance_count"] = Json(static_cast<long long>(c.instance_count));
  out["kernel_count"] = Json(static_cast<long long>(c.kernel_count));
  out["eligible_kernel_count"] = Json(static_cast<long long>(c.eligible_kernel_count));
  Json kernels = Json::array();
  for (const auto& k : c.kernels) kernels.push_back(kernel_json(k, c.sibling));
  out["kernels"] = std::move(kernels);
  out["kernel_type_signature"] = string_array(c.type_signature);
  Json summary = Json::object();
  for (const auto& [type, n] : c.type_summary) summary[type] = Json(static_cast<long long>(n));
  out["kernel_type_summary"] = std::move(summary);
  out["has_fused_kernel"] = Json(c.has_fused_kernel);
  out["total_kernel_time_us"] = time_json(c.total_kernel_time_us, c.total_is_int);
  if (c.sibling) out["source"] = Json("sibling_sequence");
  out["input_dims"] = c.input_dims;
  return out;
}

}  // namespace loupe::core::prepare::fusion
