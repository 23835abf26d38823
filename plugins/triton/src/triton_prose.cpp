#include "triton_prose.hpp"

#include <cctype>

namespace loupe::triton {

namespace {

std::string label(const std::string& type) {
  if (type == "pointwise") return "Pointwise";
  if (type == "reduction") return "Reduction";
  if (type == "persistent") return "Persistent";
  return "Other";
}

const std::vector<std::string>& type_order() {
  static const std::vector<std::string> kOrder{"Pointwise", "Reduction", "Persistent", "Other"};
  return kOrder;
}

}  // namespace

std::string triton_kernel_type(std::string_view op_name) {
  std::string name(op_name);
  for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (name.rfind("triton_poi_", 0) == 0) return "pointwise";
  if (name.rfind("triton_red_", 0) == 0) return "reduction";
  if (name.rfind("triton_per_", 0) == 0) return "persistent";
  return "other";
}

std::string TritonProse::document_title(const std::string& category) const {
  return "Triton Findings: Triton kernels (" + category + ")";
}

std::vector<std::string> TritonProse::overview(const Json& metrics) const {
  auto items = FindingsProse::overview(metrics);
  const Json* block = metrics.find("category_specific");
  if (block == nullptr) return items;
  std::string mix;
  for (const char* type : {"pointwise", "reduction", "persistent", "other"}) {
    const Json* n = block->find(std::string(type) + "_count");
    if (n == nullptr) continue;
    mix += (mix.empty() ? "" : ", ") + compute::jnum(*n) + " " + type;
  }
  if (!mix.empty()) items.push_back("Inductor kernel types: " + mix);
  return items;
}

std::string TritonProse::no_data_message() const { return "No Triton kernels found in trace."; }

std::vector<std::string> TritonProse::member_types(const compute::FindingContext& f) const {
  return compute::member_labels(
      f, [](std::string_view name) { return label(triton_kernel_type(name)); }, type_order());
}

std::string TritonProse::action(const compute::FindingContext& f) const {
  const std::string bound = f.bound_type();
  if (measured()) {
    std::string text =
        "Autotune the launch configurations of " + compute::member_names(f) +
        ": compile with `torch.compile(mode=\"max-autotune\")` (or set "
        "`torch._inductor.config.coordinate_descent_tuning = True`) so inductor benchmarks "
        "block sizes and warp counts for this shape; for a hand-written kernel, add "
        "`@triton.autotune` configs over its BLOCK sizes, `num_warps` and `num_stages`.";
    if (f.heuristic()) text += " " + FindingsProse::action(f);
    return text;
  }
  if (f.heuristic()) return FindingsProse::action(f);
  if (bound == "memory") {
    return "Optimize the memory access patterns of the dominant member kernels. Chains of "
           "memory-bound fused ops in one parent module belong to the kernel fusion findings.";
  }
  if (bound == "compute") {
    return "Profile the kernel for tile-size and wave-occupancy tuning; compute-bound fused "
           "Triton kernels are rare.";
  }
  return FindingsProse::action(f);
}

std::string TritonProse::resolution(const compute::FindingContext& f) const {
  if (measured()) {
    return "Block sizes and warp counts matched to the tensor shape give each program enough "
           "contiguous work to keep loads coalesced and the GPU full, which a single default "
           "configuration does not do for every shape.";
  }
  return FindingsProse::resolution(f);
}

std::vector<std::string> TritonProse::reasoning_extras(const compute::FindingContext& f) const {
  if (f.heuristic() || f.comparative) return {};
  return {"Individual sub-op timings within the fused kernel are not separable from the trace.",
          "Fusion strategy not visible \xE2\x80\x94 review torch.compile settings if kernels "
          "appear under-fused."};
}

}  // namespace loupe::triton
