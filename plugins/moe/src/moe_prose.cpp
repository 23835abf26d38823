#include "moe_prose.hpp"

#include "loupe/text.hpp"

namespace loupe::moe {

bool MoeProse::unfused(const compute::FindingContext& f) {
  const Json* cat = f.metrics.find("category");
  return cat != nullptr && cat->is_string() && cat->as_string() == "moe_unfused";
}

bool MoeProse::already_fp4(const compute::FindingContext& f) {
  bool any = false;
  for (const Json* op : f.operations) {
    const Json* eff = op == nullptr ? nullptr : op->find("efficiency");
    const Json* spec = eff == nullptr ? nullptr : eff->find("compute_spec");
    if (spec == nullptr || !spec->is_string() ||
        text::ascii_lower(spec->as_string()).find("fp4") == std::string::npos) {
      return false;
    }
    any = true;
  }
  return any;
}

bool MoeProse::grouped_per_stage(const compute::FindingContext& f) {
  bool any = false;
  for (const Json* op : f.operations) {
    if (op == nullptr) return false;
    const Json* name = op->find("name");
    const Json* kernel = op->find("kernel_name");
    const auto has = [](const Json* v) {
      return v != nullptr && v->is_string() &&
             v->as_string().find("matmul_ogs") != std::string::npos;
    };
    if (!has(name) && !has(kernel)) return false;
    any = true;
  }
  return any;
}

std::string MoeProse::document_title(const std::string& category) const {
  return "MoE Findings: Mixture-of-experts operations (" + category + ")";
}

std::string MoeProse::no_data_message() const {
  return "No MoE operations found in trace (N/A: the model does not use Mixture of Experts).";
}

std::string MoeProse::action(const compute::FindingContext& f) const {
  const std::string bound = f.bound_type();
  std::string text;
  if (measured() && unfused(f) && grouped_per_stage(f)) {
    text = "The expert GEMMs " + compute::member_names(f) +
           " already run as one grouped GEMM per stage (triton_kernels `matmul_ogs`, the gated "
           "activation fused into the up projection); a fully fused MoE kernel would still save "
           "the HBM round trip of the intermediate activations between the two stages. ";
  } else if (measured() && unfused(f)) {
    text = "Replace the per-stage expert GEMMs " + compute::member_names(f) +
           " with a fused MoE kernel (e.g. vLLM / SGLang `fused_moe`, AITER's fused MoE) or at "
           "least one grouped GEMM per stage, so FC1, the activation and FC2 run without "
           "separate launches and HBM round trips. ";
  }
  if (f.heuristic()) return text + FindingsProse::action(f);
  if (bound == "compute") {
    text += "Profile the dominant member kernels for tile-size and wave-occupancy tuning.";
    text += already_fp4(f) ? " The members already run FP4, so focus on kernel tuning."
                           : " If the model tolerates it, narrow the expert weights to FP8 or "
                             "FP4 to lower the compute floor.";
    return text;
  }
  if (bound == "memory") {
    return text +
           "Batch more tokens per expert call upstream (a larger batch or more concurrent "
           "requests) to raise arithmetic intensity, and optimize the access patterns of the "
           "expert-weight reads.";
  }
  return text.empty() ? FindingsProse::action(f) : text + FindingsProse::action(f);
}

std::string MoeProse::resolution(const compute::FindingContext& f) const {
  if (measured() && unfused(f) && grouped_per_stage(f)) {
    return "Grouped GEMMs already pay one launch per stage; keeping each token group's "
           "intermediate activations on chip between the stages removes their HBM write and "
           "re-read.";
  }
  if (measured() && unfused(f)) {
    return "A fused MoE kernel keeps the intermediate activations of each token group on chip "
           "between the expert GEMMs, so they are not written to and re-read from HBM, and it "
           "pays one launch instead of one per stage.";
  }
  if (f.heuristic()) return FindingsProse::resolution(f);
  if (f.bound_type() == "memory") {
    return "More tokens per call reuse each expert weight that is read from HBM, so the same "
           "bytes feed more FLOPs.";
  }
  return FindingsProse::resolution(f);
}

std::vector<std::string> MoeProse::identification_extras(const compute::FindingContext& f) const {
  if (f.heuristic() || f.bound_type() != "memory") return {};
  return {"TB/s, FLOPS/Byte, and efficiency are uniform-routing approximations."};
}

std::vector<std::string> MoeProse::reasoning_extras(const compute::FindingContext& f) const {
  if (f.heuristic() || f.comparative) return {};
  return {"Cannot assess expert load balance from trace data."};
}

}  // namespace loupe::moe
