// T15 classifier vectors (shared/data/golden/fusion/t_classify.out), copied as data.
#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

#include "loupe/core/prepare/fusion_candidates.hpp"

using loupe::core::prepare::classify_kernel;

TEST_CASE("classify_kernel matches TraceLens's vectors (T15)", "[prepare][fusion][classify]") {
  const std::vector<std::pair<std::string, std::string>> vectors = {
      {"Cijk_Alik_Bljk_BBS_BH_MT128x128", "GEMM"},
      {"rmsnorm2d_fwd", "RMSNorm"},
      {"void at::native::vectorized_layer_norm_kernel<float>", "LayerNorm"},
      {"triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_0", "RMSNorm (fused triton)"},
      {"triton_poi_fused_add_0", "Unknown"},
      {"triton_per_fused_abs_clamp_div_max_rocm_aiter_gemm_1", "GEMM"},
      {"attn_fwd", "Unknown"},
      {"_fwd_kernel_flash_attn", "Attention (flash)"},
      {"paged_attention_ll4mi_QKV", "Attention (paged)"},
      {"unified_attention_2d", "Attention (AMD unified)"},
      {"fmhaSm100fKernel", "Attention (NVIDIA fmha)"},
      {"silu_and_mul_kernel", "Activation (SiLU+Mul)"},
      {"act_and_mul_kernel<silu_kernel>", "Activation (SiLU+Mul)"},
      {"void at::native::vectorized_elementwise_kernel<8, silu_kernel>", "Elementwise"},
      {"swiglu_kernel", "MoE GateUp+SwiGLU GEMM"},
      {"fmoe_bf16_g1u1_silu", "MoE GEMM+SiLU (aiter)"},
      {"kernel_moe_gemm", "MoE GEMM (CK)"},
      {"MoeSorting_kernel", "MoE Sorting"},
      {"topkGatingSoftmax", "MoE TopK Gating"},
      {"Memcpy DtoD (Device -> Device)", "MemCpy"},
      {"__amd_rocclr_copyBuffer", "Elementwise"},
      {"void at::native::(anonymous namespace)::CatArrayBatchedCopy<...>", "Elementwise"},
      {"void at::native::elementwise_kernel<128, 4, direct_copy_kernel_cuda>", "Elementwise"},
      {"void at::native::vectorized_elementwise_kernel<4, FillFunctor<float>>", "Elementwise"},
      {"void at::native::reduce_kernel<512, 1, ReduceOp<float, MeanOps>>", "Unknown"},
      {"void at::native::(anonymous)::cunn_SoftMaxForward<4, float>", "Unknown"},
      {"wvSplitK_hf_", "GEMM"},
      {"splitKreduce_kernel", "GEMM"},
      {"nvjet_tst_128x64", "GEMM"},
      {"ampere_bf16_s16816gemm", "GEMM"},
      {"void cutlass::Kernel<cutlass_80_tensorop_bmm>", "GEMM"},
      {"rotary_embedding_kernel", "Elementwise"},
      {"apply_rope_kernel", "Rotary Embedding"},
      {"gelu_kernel", "Unknown"},
      {"void at::native::GeluCUDAKernelImpl", "Unknown"},
      {"dynamic_per_group_scaled_quant", "Quantize (per-group)"},
      {"quant_kernel_fp8", "Unknown"},
      {"rocprim::detail::scan", "Unknown"},
      {"void at::native::index_select", "Unknown"},
      {"embedding_fwd_kernel", "Elementwise"},
      {"ncclDevKernel_AllReduce", "Unknown"},
      {"batched_transpose_256x4_half", "Unknown"},
      {"rsqrt_mean_pow_kernel", "RMSNorm (fused triton)"},
      {"norm_kernel", "Unknown"},
      {"l2norm_fwd_kernel", "L2Norm"},
      {"SubTensorOpWithScalar1d", "Unknown"},
      {"naive_conv_fwd_nchw", "Unknown"},
      {"igemm_fwd_gtc", "GEMM"},
  };
  for (const auto& [name, type] : vectors) {
    INFO(name);
    CHECK(classify_kernel(name) == type);
  }
}
