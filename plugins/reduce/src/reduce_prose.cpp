#include "reduce_prose.hpp"

#include <algorithm>

#include "loupe/text.hpp"

namespace loupe::reduce {

namespace {

bool has(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

const std::vector<std::string>& type_order() {
  static const std::vector<std::string> kOrder{"Softmax", "Sum", "Mean", "Max", "Min", "Other"};
  return kOrder;
}

}  // namespace

bool is_softmax(std::string_view op_name) { return has(text::ascii_lower(op_name), "softmax"); }

std::string classify_reduce(std::string_view op_name) {
  const std::string base = compute::op_base_name(op_name);
  if (has(base, "softmax")) return "Softmax";
  if (has(base, "sum")) return "Sum";
  if (has(base, "mean") || has(base, "avg")) return "Mean";
  if (has(base, "max")) return "Max";
  if (has(base, "min")) return "Min";
  return "Other";
}

std::string ReduceProse::document_title(const std::string& category) const {
  return "Reduce Findings: Reductions (" + category + ")";
}

std::vector<std::string> ReduceProse::overview(const Json& metrics) const {
  auto items = FindingsProse::overview(metrics);
  const Json* block = metrics.find("category_specific");
  const Json* softmax = block == nullptr ? nullptr : block->find("softmax_count");
  if (softmax != nullptr) items.push_back("Softmax signatures: " + compute::jnum(*softmax));
  return items;
}

std::string ReduceProse::no_data_message() const { return "No reduce operations found in trace."; }

std::vector<std::string> ReduceProse::member_types(const compute::FindingContext& f) const {
  return compute::member_labels(f, &classify_reduce, type_order());
}

bool ReduceProse::softmax_in_attention(const compute::FindingContext& f) {
  for (const Json* op : f.operations) {
    if (op == nullptr) continue;
    const Json* name = op->find("name");
    if (name == nullptr || !name->is_string() || !is_softmax(name->as_string())) continue;
    const Json* chain = op->find("module_chain");
    if (chain == nullptr || !chain->is_array()) continue;
    for (const auto& m : chain->as_array()) {
      if (m.is_string() && has(text::ascii_lower(m.as_string()), "attention")) return true;
    }
  }
  return false;
}

std::string ReduceProse::action(const compute::FindingContext& f) const {
  if (f.heuristic()) return FindingsProse::action(f);
  const std::string bound = f.bound_type();
  if (bound == "memory") {
    if (!measured()) {
      return "Optimize the memory access patterns of the dominant member kernels. A softmax in "
             "an attention module is a fusion opportunity, and chains of memory-bound "
             "reductions in one parent module belong to the kernel fusion findings.";
    }
    if (softmax_in_attention(f)) {
      return "Replace the attention block's separate softmax (" + compute::member_names(f) +
             ") with a fused attention kernel (`torch.nn.functional.scaled_dot_product_attention`"
             ", or the model's SDPA / flash-attention implementation), so the score matrix is "
             "never written to and re-read from HBM.";
    }
    return "Fuse " + compute::member_names(f) +
           " with the op that produces its input (compile the module with `torch.compile`, "
           "or use a fused kernel), so the reduced tensor is read from HBM once.";
  }
  if (bound == "compute") {
    return "Profile the kernel for wave-occupancy tuning; compute-bound reductions are rare.";
  }
  return FindingsProse::action(f);
}

std::string ReduceProse::resolution(const compute::FindingContext& f) const {
  if (!f.heuristic() && f.bound_type() == "memory") {
    if (measured() && softmax_in_attention(f)) {
      return "A fused attention kernel computes the softmax on tiles held on chip, so the "
             "attention scores never make a round trip through HBM.";
    }
    return "Reducing inside the producing kernel removes one full read of the tensor, the "
           "dominant cost of a memory-bound reduction.";
  }
  return FindingsProse::resolution(f);
}

std::vector<std::string> ReduceProse::identification_extras(
    const compute::FindingContext& f) const {
  const auto types = member_types(f);
  if (f.heuristic() || std::find(types.begin(), types.end(), "Softmax") == types.end()) return {};
  const Json* count = f.category_specific("softmax_count");
  return {"The category holds " + (count ? compute::jnum(*count) : std::string("\xE2\x80\x94")) +
          " softmax signatures, an attention pattern."};
}

std::vector<std::string> ReduceProse::reasoning_extras(const compute::FindingContext& f) const {
  if (f.heuristic() || f.comparative) return {};
  return {
      "Reduction strategy not visible \xE2\x80\x94 profile the kernel to identify the "
      "variant."};
}

}  // namespace loupe::reduce
