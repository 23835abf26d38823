#include "sdpa_library_rules.hpp"

namespace loupe::sdpa {

const std::vector<compute::LibraryRule>& sdpa_library_rules() {
  static const std::vector<compute::LibraryRule> kRules{
      // PyTorch's bundled FlashAttention-2 (CUDA) and the upstream flash-attn package.
      {"pytorch_flash::", "FlashAttention (PyTorch)", false},
      {"flash_fwd_", "FlashAttention", false},
      {"flash_bwd_", "FlashAttention", false},
      // PyTorch's ROCm flash path (AOTriton kernels attn_fwd / bwd_kernel).
      {"attn_fwd", "AOTriton", false},
      {"bwd_kernel_dk_dv", "AOTriton", false},
      {"bwd_kernel_dq", "AOTriton", false},
      // Inference-server attention kernels.
      {"fmhaSm", "TensorRT-LLM FMHA", false},
      {"flashinfer", "FlashInfer", false},
      {"kernel_unified_attention", "vLLM Triton", false},
      {"paged_attention_ll4mi", "vLLM", false},
      {"reshape_and_cache", "vLLM", true},
  };
  return kRules;
}

}  // namespace loupe::sdpa
