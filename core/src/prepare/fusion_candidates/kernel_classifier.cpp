// Kernel type classification (spec docs/contracts/fusion.md §2.2): case-insensitive regex rules,
// highest priority wins, earliest rule on a tie, Unknown below priority 5. Shadowed and
// below-minimum rules of the table are omitted: they can never decide the result.
#include <array>
#include <mutex>
#include <regex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "candidate.hpp"
#include "loupe/core/prepare/fusion_candidates.hpp"
#include "loupe/text.hpp"

namespace loupe::core::prepare {
namespace {

struct RuleText {
  const char* pattern;
  const char* type;
  int priority;
};

// Table order matters for ties (rows of §2.2 that can win).
constexpr std::array kRules = {
    RuleText{"Rmsnorm|rmsnorm2d", "RMSNorm", 20},
    RuleText{"layer_norm|layernorm", "LayerNorm", 20},
    RuleText{"l2norm_fwd|l2norm_kernel", "L2Norm", 20},
    RuleText{"rsqrt.*mean.*pow|mean.*mul.*pow.*rsqrt", "RMSNorm (fused triton)", 20},
    RuleText{"_to_copy_add.*mean.*rsqrt", "RMSNorm (fused triton)", 20},
    RuleText{"fused__to_copy_abs.*mean.*pow.*rsqrt", "RMSNorm (fused triton)", 18},
    RuleText{"fused__to_copy_add.*mean.*pow.*rsqrt", "RMSNorm (fused triton)", 18},
    RuleText{"fused_add_copy__mean.*pow", "RMSNorm (fused triton residual)", 18},
    RuleText{"fused__to_copy_add_copy__mean.*pow", "RMSNorm (fused triton residual)", 18},
    RuleText{"fused__to_copy_add_mean_moe_forward_shared.*pow.*rsqrt",
             "RMSNorm (shared expert + norm)", 20},
    RuleText{"fused__to_copy_add_mean.*mul.*pow.*rsqrt", "RMSNorm (fused triton)", 18},
    RuleText{"attention_[23]d|unified_attention", "Attention (AMD unified)", 20},
    RuleText{"fmha[Ss]m\\d+|fmhaSm100f", "Attention (NVIDIA fmha)", 20},
    RuleText{"paged_attention|PagedAttention", "Attention (paged)", 20},
    RuleText{"flash_attn|flash_fwd", "Attention (flash)", 20},
    RuleText{"reduce_segments", "Attention Reduce", 20},
    RuleText{"reshape_and_cache_flash|reshape_and_cache", "KV Cache Store", 20},
    RuleText{"chunk_gated_delta_rule_fwd", "Linear Attention (chunk delta)", 20},
    RuleText{"chunk_fwd_kernel_o", "Linear Attention (chunk fwd)", 20},
    RuleText{"chunk_scaled_dot_kkt", "Linear Attention (chunk kkt)", 20},
    RuleText{"chunk_local_cumsum", "Linear Attention (chunk cumsum)", 20},
    RuleText{"fused_recurrent_gated_delta_rule", "Linear Attention (recurrent delta)", 20},
    RuleText{"recompute_w_u_fwd", "Linear Attention (recompute wu)", 20},
    RuleText{"merge_\\d+x\\d+_to_\\d+x\\d+_inverse", "Linear Attention (merge inverse)", 20},
    RuleText{"_causal_conv1d_fwd|_causal_conv1d_update", "Causal Conv1D", 20},
    RuleText{"fused_gdn_gating", "GDN Gating", 20},
    RuleText{"swiglu|swiGlu", "MoE GateUp+SwiGLU GEMM", 25},
    RuleText{"fmoe.*g1u1.*silu|fmoe.*silu", "MoE GEMM+SiLU (aiter)", 25},
    RuleText{"kernel_moe_gemm|MoeGemmBlockScale", "MoE GEMM (CK)", 22},
    RuleText{"finalize.*scatter|_finalize_matmul|finalizeKernel", "MoE Finalize", 20},
    RuleText{"topk_forward", "MoE TopK", 20},
    RuleText{"topkGatingSoftmax", "MoE TopK Gating", 20},
    RuleText{"bitmatrix|_sum_bitmatrix", "MoE BitMatrix", 20},
    RuleText{"combined_routing_memset", "MoE Routing Memset", 20},
    RuleText{"combined_routing_compute", "MoE Routing Compute", 20},
    RuleText{"routingIndicesCluster|routingRenormalize", "MoE Routing (fused)", 20},
    RuleText{"MoeSorting", "MoE Sorting", 20},
    RuleText{"constant_pad.*moe|moe_forward", "MoE Pad", 20},
    RuleText{"quantize_with_block_size", "MoE Quantize", 20},
    RuleText{"per_token_group_quant|dynamic_per_group_scaled_quant", "Quantize (per-group)", 18},
    RuleText{"act_and_mul_kernel.*silu_kernel", "Activation (SiLU+Mul)", 20},
    RuleText{"silu_and_mul|silu_mul|SiluAndMul", "Activation (SiLU+Mul)", 18},
    RuleText{"activationDeepSeekKernel", "Activation (DeepSeek fused)", 18},
    RuleText{"fused_mul_sigmoid", "Activation (SiLU)", 18},
    RuleText{"\\bsilu\\b|swish", "Activation (SiLU)", 15},
    RuleText{"\\bgelu\\b", "Activation (GELU)", 15},
    RuleText{"memcpy", "MemCpy", 30},
    RuleText{"rotary|rope", "Rotary Embedding", 18},
    RuleText{"embedding", "Elementwise", 20},
    RuleText{"gather_kernel|vectorized_gather", "Elementwise", 20},
    RuleText{"splitKreduce|splitkreduce", "GEMM", 15},
    RuleText{"top_k|top_p|sampling|topk_topp", "Elementwise", 15},
    RuleText{"CUDAFunctorOnSelf_add<int>", "Elementwise", 15},
    RuleText{"__amd_rocclr_copyBuffer", "Elementwise", 12},
    RuleText{"memcpy32_post", "Elementwise", 12},
    RuleText{"copy_page_indices", "Elementwise", 12},
    RuleText{"vectorized_elementwise_kernel.*FillFunctor", "Elementwise", 10},
    RuleText{"direct_copy_kernel|_to_copy\\b", "Elementwise", 10},
    RuleText{"CatArrayBatchedCopy", "Elementwise", 10},
    RuleText{"elementwise.*add|FunctorOnSelf_add", "Elementwise", 8},
    RuleText{"elementwise.*mul", "Elementwise", 8},
    RuleText{"elementwise", "Elementwise", 5},
    RuleText{"_matmul_ogs.*mxfp4", "GEMM", 12},
    RuleText{"_gemm_a16_w16", "GEMM", 12},
    RuleText{"nvjet_tst", "GEMM", 12},
    RuleText{"wvSplitK", "GEMM", 12},
    RuleText{"Cijk_", "GEMM", 12},
    RuleText{"kernel_gemm_xdl_cshuffle", "GEMM", 12},
    RuleText{"_gemm_a\\d+w\\d+", "GEMM", 10},
    RuleText{"bmm_MxE4m3.*MxE2m1", "GEMM", 10},
    RuleText{"bmm_Bfloat16.*MxE2m1", "GEMM", 10},
    RuleText{"cublasLt|cublas", "GEMM", 10},
    RuleText{"rocm_aiter_gemm_a8w8", "GEMM", 10},
    RuleText{"triton_poi_fused.*clamp.*div.*rocm_aiter_gemm", "GEMM", 8},
    RuleText{"triton_per_fused.*abs.*clamp.*div.*max.*rocm_aiter_gemm", "GEMM", 8},
    RuleText{"gemm|matmul|bmm", "GEMM", 5},
};

struct CompiledRule {
  std::regex re;
  std::string type;
  int priority;
  // One lower-case literal per alternative of the pattern that any match of that alternative
  // contains; empty when some alternative has none. A name containing none of them cannot
  // match, so the (slow) regex search is skipped.
  std::vector<std::string> required;
};

bool is_regex_meta(char c) {
  return std::string_view(".*+?[](){}\\^$|").find(c) != std::string_view::npos;
}

// The longest run of plain characters of one alternative (a character followed by a
// quantifier is optional and ends the run before it); empty when there is none.
std::string longest_literal(std::string_view branch) {
  std::string best;
  std::string run;
  const auto flush = [&] {
    if (run.size() > best.size()) best = run;
    run.clear();
  };
  for (std::size_t i = 0; i < branch.size(); ++i) {
    const char c = branch[i];
    if (c == '\\') {  // an escape (\d, \b, ...) is not a plain character
      flush();
      ++i;
      continue;
    }
    if (c == '[') {  // a character class is not a plain character
      flush();
      i = branch.find(']', i + 1);
      if (i == std::string_view::npos) break;
      continue;
    }
    if (c == '*' || c == '?' || c == '{') {  // the previous character may be absent
      if (!run.empty()) run.pop_back();
      flush();
      continue;
    }
    if (is_regex_meta(c)) {
      flush();
      continue;
    }
    run.push_back(text::ascii_lower(c));
  }
  flush();
  return best;
}

// Literals for the patterns of kRules: they use no groups, so '|' splits alternatives.
std::vector<std::string> required_literals(std::string_view pattern) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t bar = pattern.find('|', start);
    std::string literal = longest_literal(pattern.substr(start, bar - start));
    if (literal.empty()) return {};
    out.push_back(std::move(literal));
    if (bar == std::string_view::npos) return out;
    start = bar + 1;
  }
}

const std::vector<CompiledRule>& compiled_rules() {
  static const std::vector<CompiledRule> rules = [] {
    std::vector<CompiledRule> out;
    out.reserve(kRules.size());
    for (const auto& r : kRules) {
      out.push_back(
          {std::regex(r.pattern, std::regex::ECMAScript | std::regex::icase | std::regex::optimize),
           r.type, r.priority, required_literals(r.pattern)});
    }
    return out;
  }();
  return rules;
}

bool may_match(const CompiledRule& rule, const std::string& lower_name) {
  if (rule.required.empty()) return true;
  for (const auto& literal : rule.required) {
    if (lower_name.find(literal) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

std::string classify_kernel(std::string_view kernel_name) {
  std::string lower_name(kernel_name);
  for (char& c : lower_name) c = text::ascii_lower(c);
  const CompiledRule* best = nullptr;
  for (const auto& rule : compiled_rules()) {
    // Strictly higher priority only: the earliest rule wins a tie.
    if (best != nullptr && rule.priority <= best->priority) continue;
    if (!may_match(rule, lower_name)) continue;
    if (std::regex_search(kernel_name.begin(), kernel_name.end(), rule.re)) best = &rule;
  }
  constexpr int kMinConfidence = 5;
  if (best == nullptr || best->priority < kMinConfidence) return "Unknown";
  return best->type;
}

namespace fusion {

const std::string& classify_cached(std::string_view kernel_name) {
  static std::mutex mutex;
  static std::unordered_map<std::string, std::string> cache;
  const std::lock_guard lock(mutex);
  auto it = cache.find(std::string(kernel_name));
  if (it == cache.end()) {
    it = cache.emplace(std::string(kernel_name), classify_kernel(kernel_name)).first;
  }
  return it->second;
}

}  // namespace fusion
}  // namespace loupe::core::prepare
