#include "norm_prose.hpp"

#include <algorithm>

namespace loupe::norm {

namespace {

bool has(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

const std::vector<std::string>& type_order() {
  static const std::vector<std::string> kOrder{"BatchNorm",    "LayerNorm", "GroupNorm",
                                               "InstanceNorm", "RMSNorm",   "Other"};
  return kOrder;
}

bool only(const std::vector<std::string>& types, const std::string& label) {
  return types.size() == 1 && types.front() == label;
}

}  // namespace

std::string classify_norm(std::string_view op_name) {
  const std::string base = compute::op_base_name(op_name);
  if (has(base, "batch_norm") || has(base, "batchnorm")) return "BatchNorm";
  if (has(base, "layer_norm") || has(base, "layernorm")) return "LayerNorm";
  if (has(base, "group_norm") || has(base, "groupnorm")) return "GroupNorm";
  if (has(base, "instance_norm") || has(base, "instancenorm")) return "InstanceNorm";
  if (has(base, "rms_norm") || has(base, "rmsnorm")) return "RMSNorm";
  return "Other";
}

std::string NormProse::document_title(const std::string& category) const {
  return "Normalization Findings: Normalizations (" + category + ")";
}

std::string NormProse::no_data_message() const {
  return "No normalization operations found in trace.";
}

std::vector<std::string> NormProse::member_types(const compute::FindingContext& f) const {
  return compute::member_labels(f, &classify_norm, type_order());
}

std::string NormProse::action(const compute::FindingContext& f) const {
  if (f.heuristic()) return FindingsProse::action(f);
  const std::string bound = f.bound_type();
  if (bound == "memory") {
    if (!measured()) {
      return "Optimize the memory access patterns of the dominant member kernels. For "
             "BatchNorm-heavy CNNs, channels-last layout "
             "(`model.to(memory_format=torch.channels_last)`) often improves coalescing; chains "
             "of norm, activation and residual ops belong to the kernel fusion findings.";
    }
    const auto types = member_types(f);
    if (only(types, "BatchNorm")) {
      return "Run " + compute::member_names(f) +
             " channels-last (`model = model.to(memory_format=torch.channels_last)`) and "
             "compile the module with `torch.compile`, so the BatchNorm reads coalesced "
             "channels and runs fused with its activation.";
    }
    return "Replace " + compute::member_names(f) +
           " with a fused normalization kernel: apex's `FusedLayerNorm` / `FusedRMSNorm`, "
           "`torch.nn.RMSNorm` / `torch.nn.LayerNorm` under `torch.compile`, or compile the "
           "module with `torch.compile`, so the statistics, the scaling and the residual add run "
           "in one pass over the tensor.";
  }
  if (bound == "compute") {
    return "Profile the kernel for tile-size and wave-occupancy tuning; compute-bound "
           "normalizations are rare.";
  }
  return FindingsProse::action(f);
}

std::string NormProse::resolution(const compute::FindingContext& f) const {
  if (!f.heuristic() && f.bound_type() == "memory") {
    if (measured() && only(member_types(f), "BatchNorm")) {
      return "In channels-last tensors the values of one channel sit at a fixed stride across "
             "neighbouring pixels, so the per-channel statistics are read with coalesced loads, "
             "and a compiled BatchNorm fused with its activation writes its output once.";
    }
    return "A fused normalization kernel reads the tensor once for the statistics and the "
           "scaling together, instead of once per step, which cuts the bytes moved of a "
           "memory-bound op.";
  }
  return FindingsProse::resolution(f);
}

std::vector<std::string> NormProse::reasoning_extras(const compute::FindingContext& f) const {
  if (f.heuristic() || f.comparative) return {};
  return {
      "Reduction strategy not visible \xE2\x80\x94 profile the kernel to identify the "
      "variant."};
}

}  // namespace loupe::norm
