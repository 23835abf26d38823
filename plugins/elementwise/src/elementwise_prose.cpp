#include "elementwise_prose.hpp"

#include <algorithm>
#include <array>

namespace loupe::elementwise {

namespace {

bool one_of(const std::string& base, std::initializer_list<std::string_view> names) {
  return std::find(names.begin(), names.end(), base) != names.end();
}

const std::vector<std::string>& type_order() {
  static const std::vector<std::string> kOrder{"Baseline",       "Arithmetic", "Activation",
                                               "Cast / Convert", "Math",       "Comparison / Mask",
                                               "Other"};
  return kOrder;
}

}  // namespace

std::string classify_elementwise(std::string_view op_name) {
  const std::string base = compute::op_base_name(op_name);
  if (one_of(base, {"add", "mul", "copy", "fill"})) return "Baseline";
  if (one_of(base, {"sub", "div", "remainder", "fmod", "neg", "abs", "clamp"})) return "Arithmetic";
  for (const std::string_view act :
       {"sigmoid", "relu", "gelu", "silu", "swish", "tanh", "mish", "hardswish", "leaky_relu"}) {
    if (base.find(act) != std::string::npos) return "Activation";
  }
  if (one_of(base, {"to", "_to_copy", "to_copy", "type_as", "float", "half", "bfloat16"})) {
    return "Cast / Convert";
  }
  if (one_of(base, {"exp", "log", "pow", "sqrt", "rsqrt", "reciprocal", "erf"})) return "Math";
  if (one_of(base, {"where", "masked_fill", "eq", "ne", "gt", "lt", "ge", "le"})) {
    return "Comparison / Mask";
  }
  return "Other";
}

std::string ElementwiseProse::document_title(const std::string& category) const {
  return "Elementwise Findings: Elementwise operations (" + category + ")";
}

std::string ElementwiseProse::no_data_message() const {
  return "No elementwise operations found in trace.";
}

std::vector<std::string> ElementwiseProse::member_types(const compute::FindingContext& f) const {
  return compute::member_labels(f, &classify_elementwise, type_order());
}

std::string ElementwiseProse::action(const compute::FindingContext& f) const {
  if (f.heuristic()) return FindingsProse::action(f);
  const std::string bound = f.bound_type();
  if (bound == "memory") {
    if (!measured()) {
      return "Optimize the memory access patterns of the dominant member kernels. Chains of "
             "memory-bound elementwise ops in one parent module belong to the kernel fusion "
             "findings, and very frequent same-shape calls should be batched upstream.";
    }
    std::string text = "Fuse " + compute::member_names(f) +
                       " with the ops that produce and consume their tensors: compile the "
                       "module with `torch.compile` (or use a fused kernel for the chain) so "
                       "the intermediates stay out of HBM.";
    const long long calls = compute::max_member_count(f);
    if (calls >= kManyCalls) {
      text += " The " + std::to_string(calls) +
              " calls of one signature also point at launch overhead: batch them upstream "
              "(e.g. the `torch._foreach_*` ops over a tensor list).";
    }
    return text;
  }
  if (bound == "compute") {
    return "Profile the kernel for tile-size tuning, and confirm the op is not a small "
           "reduction or a transcendental that the category misclassifies.";
  }
  return FindingsProse::action(f);
}

std::string ElementwiseProse::resolution(const compute::FindingContext& f) const {
  if (!f.heuristic() && f.bound_type() == "memory") {
    return "A fused kernel keeps the intermediate values in registers, so a chain of k "
           "elementwise ops reads and writes its tensors once instead of k times.";
  }
  return FindingsProse::resolution(f);
}

std::vector<std::string> ElementwiseProse::expectation_sentences(
    const compute::FindingContext& f) const {
  const auto types = member_types(f);
  if (std::find(types.begin(), types.end(), "Baseline") == types.end()) return {};
  return {
      "Baseline elementwise ops (add, mul, copy, fill) are expected to exceed 70% of peak "
      "HBM bandwidth."};
}

std::vector<std::string> ElementwiseProse::reasoning_extras(
    const compute::FindingContext& f) const {
  if (f.heuristic() || f.comparative || f.bound_type() != "memory") return {};
  return {
      "Cannot separate per-launch overhead from memory stalls \xE2\x80\x94 high invocation "
      "count is a strong signal of launch-overhead dominance."};
}

}  // namespace loupe::elementwise
