// Findings prose for mixture-of-experts kernels (moe_fused, moe_unfused): the prompt's
// uniform-routing caveat for memory-bound findings, precision advice that stops at FP4, and
// actions by bound type and bucket. Default mode: an unfused MoE is replaced by a fused MoE
// kernel or a grouped GEMM (matmul_ogs stages are grouped GEMMs already); memory-bound MoE
// batches more tokens.
#pragma once

#include <string>
#include <vector>

#include "loupe/compute/card_facts.hpp"

namespace loupe::moe {

class MoeProse : public compute::MeasuredProse {
 public:
  using MeasuredProse::MeasuredProse;
  std::string document_title(const std::string& category) const override;
  std::string noun() const override { return "MoE op"; }
  std::string no_data_message() const override;
  std::string action(const compute::FindingContext& f) const override;
  std::string resolution(const compute::FindingContext& f) const override;
  std::vector<std::string> identification_extras(const compute::FindingContext& f) const override;
  std::vector<std::string> reasoning_extras(const compute::FindingContext& f) const override;

 private:
  static bool unfused(const compute::FindingContext& f);
  // Every member already runs FP4 (Compute Spec names fp4).
  static bool already_fp4(const compute::FindingContext& f);
  // Every member runs triton_kernels' matmul_ogs: one grouped GEMM per stage, the gated
  // activation fused into the up projection (docs/deviations.md, "MoE matmuls (matmul_ogs)").
  static bool grouped_per_stage(const compute::FindingContext& f);
};

}  // namespace loupe::moe
