// The kernel-family table (loupe/compute/kernel_family.hpp): real kernel names of the serving
// engines' traces and of each vendor library, and what each says about the kernel.
#include <catch2/catch.hpp>

#include "loupe/compute/kernel_family.hpp"

using namespace loupe::compute;

TEST_CASE("kernel families by vendor library", "[kernel_family]") {
  // AITER's fused paged prefill is AITER's, not FlashInfer's (whose name it contains).
  const auto aiter = kernel_family(
      "_ZN7ck_tile6kentryILi1ENS_38FmhaBatchPrefillWithPagedKVCacheKernelINS_23BlockFmha");
  CHECK(aiter.library == KernelLibrary::kAiter);
  CHECK(aiter.vendor == GpuVendor::kAmd);
  CHECK((aiter.attention && aiter.fused && aiter.paged));
  const auto flashinfer = kernel_family(
      "void flashinfer::BatchPrefillWithPagedKVCacheKernel<128u, 4u, (flashinfer::MaskMode)1>");
  CHECK(flashinfer.library == KernelLibrary::kFlashInfer);
  CHECK(flashinfer.vendor == GpuVendor::kNvidia);
  CHECK(flashinfer.paged);
  // vLLM's ROCm paged attention (SGLang decode trace), vLLM's Triton unified attention.
  const auto ll4mi = kernel_family(
      "void paged_attention_ll4mi_QKV_mfma16_kernel<0, __hip_bfloat16, __hip_bfloat16>");
  CHECK((ll4mi.library == KernelLibrary::kVllmRocm && ll4mi.paged && ll4mi.fused));
  const auto unified = kernel_family("kernel_unified_attention_2d");
  CHECK((unified.library == KernelLibrary::kTriton && unified.paged && unified.fused));
  CHECK(unified.vendor == GpuVendor::kUnknown);
  // AOTriton (PyTorch's flash SDPA on ROCm) vs a Triton flash kernel of either vendor.
  const auto aotriton = kernel_family("attn_fwd");
  CHECK((aotriton.library == KernelLibrary::kAoTriton && aotriton.fused && !aotriton.paged));
  CHECK(aotriton.vendor == GpuVendor::kAmd);
  CHECK(kernel_family("_attn_fwd").library == KernelLibrary::kTriton);
  // FlashAttention 3 (Hopper) before FlashAttention 2.
  const auto fa3 = kernel_family("void flash::FlashAttnFwdSm90<flash::CollectiveMainloopFwd>");
  CHECK((fa3.library == KernelLibrary::kFlashAttention3 && fa3.hopper));
  const auto fa2 = kernel_family("void flash_fwd_kernel<Flash_fwd_kernel_traits<128, 64, 64>>");
  CHECK((fa2.library == KernelLibrary::kFlashAttention2 && !fa2.hopper && fa2.fused));
  // GEMM libraries.
  CHECK(kernel_family("Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT256x32x64").library ==
        KernelLibrary::kHipBlasLt);
  CHECK(kernel_family("Cijk_Ailk_Bljk_HHS_BH_MT128x128x32_MI32x32x8x1").library ==
        KernelLibrary::kTensile);
  CHECK(kernel_family("_ZN5aiter24add_rmsnorm_quant_kernelIDF16b").library ==
        KernelLibrary::kAiter);
  CHECK_FALSE(kernel_family("_ZN5aiter24add_rmsnorm_quant_kernelIDF16b").attention);
  const auto nvjet = kernel_family("nvjet_hsh_128x256_64x4_2x1_v_bz_coopA_NNT");
  CHECK((nvjet.library == KernelLibrary::kCuBlas && nvjet.vendor == GpuVendor::kNvidia));
  CHECK(kernel_family("cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm>").library ==
        KernelLibrary::kCutlass);
  CHECK(kernel_family("_matmul_ogs_NNT_bf16xbf16xmxfp4_16x128x256x1").library ==
        KernelLibrary::kTriton);
  // PyTorch's unfused softmax is no attention kernel; an unknown name has no family.
  CHECK(kernel_family("void at::native::(anonymous namespace)::cunn_SoftMaxForward<8>").library ==
        KernelLibrary::kPyTorchNative);
  CHECK(kernel_family("my_custom_kernel").library == KernelLibrary::kUnknown);
  CHECK(std::string(kernel_library_name(KernelLibrary::kAiter)) == "AITER");
}

TEST_CASE("platform vendor and Hopper", "[kernel_family]") {
  CHECK(platform_vendor("MI300X") == GpuVendor::kAmd);
  CHECK(platform_vendor("MI355X") == GpuVendor::kAmd);
  CHECK(platform_vendor("H100") == GpuVendor::kNvidia);
  CHECK(platform_vendor("B200") == GpuVendor::kNvidia);
  CHECK(platform_vendor("") == GpuVendor::kUnknown);
  CHECK(platform_is_hopper("H200"));
  CHECK_FALSE(platform_is_hopper("B200"));
  CHECK_FALSE(platform_is_hopper("MI300X"));
}
