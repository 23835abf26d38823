#include "loupe/compute/kernel_family.hpp"

#include <array>

namespace loupe::compute {
namespace {

bool has(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

using L = KernelLibrary;
using V = GpuVendor;

struct Rule {
  std::string_view pattern;  // a substring of the kernel name (case-sensitive)
  KernelFamily family;
};

// First match wins: the more specific names come before the library prefixes they contain
// (AITER's FmhaBatchPrefillWithPagedKVCacheKernel before FlashInfer's
// BatchPrefillWithPagedKVCacheKernel, FlashAttention 3 before FlashAttention 2).
constexpr std::array kRules = {
    // AMD
    Rule{"FmhaBatchPrefillWithPagedKVCache", {L::kAiter, V::kAmd, true, true, true, false}},
    Rule{"paged_attention_ll4mi", {L::kVllmRocm, V::kAmd, true, true, true, false}},
    Rule{"pa_decode", {L::kAiter, V::kAmd, true, true, true, false}},
    Rule{"mla_decode", {L::kAiter, V::kAmd, true, true, true, false}},
    Rule{"fmha_v3", {L::kAiter, V::kAmd, true, true, false, false}},
    Rule{"FmhaFwd", {L::kCk, V::kAmd, true, true, false, false}},
    Rule{"FmhaBwd", {L::kCk, V::kAmd, true, true, false, false}},
    Rule{"fmha_fwd", {L::kCk, V::kAmd, true, true, false, false}},
    Rule{"fmha_bwd", {L::kCk, V::kAmd, true, true, false, false}},
    Rule{"aiter", {L::kAiter, V::kAmd, false, false, false, false}},
    Rule{"ck_tile", {L::kCk, V::kAmd, false, false, false, false}},
    Rule{"_ZN2ck", {L::kCk, V::kAmd, false, false, false, false}},
    Rule{"ck::tensor_operation", {L::kCk, V::kAmd, false, false, false, false}},
    Rule{"_UserArgs", {L::kHipBlasLt, V::kAmd, false, false, false, false}},
    Rule{"Cijk_", {L::kTensile, V::kAmd, false, false, false, false}},
    Rule{"attn_fwd", {L::kAoTriton, V::kAmd, true, true, false, false}},
    Rule{"attn_bwd", {L::kAoTriton, V::kAmd, true, true, false, false}},
    // Triton (either vendor)
    Rule{"kernel_unified_attention", {L::kTriton, V::kUnknown, true, true, true, false}},
    Rule{"_matmul_ogs", {L::kTriton, V::kUnknown, false, false, false, false}},
    Rule{"triton_", {L::kTriton, V::kUnknown, false, false, false, false}},
    // NVIDIA
    Rule{"FlashAttnFwdSm90", {L::kFlashAttention3, V::kNvidia, true, true, false, true}},
    Rule{"FlashAttnBwdSm90", {L::kFlashAttention3, V::kNvidia, true, true, false, true}},
    Rule{"flashinfer", {L::kFlashInfer, V::kNvidia, true, true, false, false}},
    Rule{"WithPagedKVCache", {L::kFlashInfer, V::kNvidia, true, true, true, false}},
    Rule{"flash_fwd", {L::kFlashAttention2, V::kNvidia, true, true, false, false}},
    Rule{"flash_bwd", {L::kFlashAttention2, V::kNvidia, true, true, false, false}},
    Rule{"flash::", {L::kFlashAttention2, V::kNvidia, true, true, false, false}},
    Rule{"fmha_cutlass", {L::kCutlass, V::kNvidia, true, true, false, false}},
    Rule{"cutlass", {L::kCutlass, V::kNvidia, false, false, false, false}},
    Rule{"nvjet", {L::kCuBlas, V::kNvidia, false, false, false, true}},
    Rule{"xmma", {L::kCuBlas, V::kNvidia, false, false, false, false}},
    Rule{"cublas", {L::kCuBlas, V::kNvidia, false, false, false, false}},
    Rule{"ampere_", {L::kCuBlas, V::kNvidia, false, false, false, false}},
    Rule{"sm80_", {L::kCuBlas, V::kNvidia, false, false, false, false}},
    Rule{"sm90_", {L::kCuBlas, V::kNvidia, false, false, false, true}},
    // PyTorch's own kernels (either vendor)
    Rule{"at::native::", {L::kPyTorchNative, V::kUnknown, false, false, false, false}},
};

}  // namespace

KernelFamily kernel_family(std::string_view kernel_name) {
  for (const auto& rule : kRules) {
    if (has(kernel_name, rule.pattern)) {
      KernelFamily f = rule.family;
      // FlashInfer's paged kernels name the cache in the kernel name.
      if (f.library == L::kFlashInfer && has(kernel_name, "Paged")) f.paged = true;
      // AOTriton's kernels are named attn_fwd / attn_bwd; other *_attn_fwd kernels are Triton
      // flash kernels of either vendor.
      if (f.library == L::kAoTriton && !kernel_name.starts_with("attn_")) {
        f.library = L::kTriton;
        f.vendor = V::kUnknown;
      }
      if (has(kernel_name, "sm90") || has(kernel_name, "Sm90")) f.hopper = true;
      return f;
    }
  }
  return {};
}

const char* kernel_library_name(KernelLibrary library) {
  switch (library) {
    case L::kAiter:
      return "AITER";
    case L::kCk:
      return "Composable Kernel";
    case L::kHipBlasLt:
      return "hipBLASLt";
    case L::kTensile:
      return "Tensile (rocBLAS)";
    case L::kAoTriton:
      return "AOTriton";
    case L::kVllmRocm:
      return "vLLM's ROCm paged attention";
    case L::kTriton:
      return "Triton";
    case L::kFlashAttention2:
      return "FlashAttention 2";
    case L::kFlashAttention3:
      return "FlashAttention 3";
    case L::kFlashInfer:
      return "FlashInfer";
    case L::kCuBlas:
      return "cuBLAS";
    case L::kCutlass:
      return "CUTLASS";
    case L::kPyTorchNative:
      return "PyTorch native";
    case L::kUnknown:
      break;
  }
  return "";
}

GpuVendor platform_vendor(std::string_view platform) {
  if (platform.starts_with("MI") || has(platform, "Instinct") || has(platform, "AMD")) {
    return V::kAmd;
  }
  for (const std::string_view nvidia : {"H100", "H200", "H20", "GH200", "B200", "B100", "GB200",
                                        "A100", "A10", "L40", "L4", "NVIDIA", "RTX"}) {
    if (has(platform, nvidia)) return V::kNvidia;
  }
  return V::kUnknown;
}

bool platform_is_hopper(std::string_view platform) {
  return has(platform, "H100") || has(platform, "H200") || has(platform, "H20") ||
         has(platform, "GH200") || has(platform, "H800");
}

}  // namespace loupe::compute
