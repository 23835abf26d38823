// Which vendor library a GPU kernel comes from, by its name, and what that says about it:
// whether it is an attention kernel, already fused (flash-style: softmax(QK^T)V in on-chip
// tiles), reading a paged KV cache, and which platform it runs on (docs/deviations.md,
// "Engine- and platform-correct actions"). The one table of kernel families: the attention and
// GEMM analyzers and the serving report read it to offer only actions that exist for the
// platform and are not already in effect. Library attribution in the metrics files stays
// TraceLens's (op_fields.hpp); this table only drives the prose.
#pragma once

#include <string>
#include <string_view>

namespace loupe::compute {

enum class KernelLibrary {
  kUnknown,
  kAiter,            // AMD AITER (asm / CK / Triton kernels under aiter::)
  kCk,               // AMD Composable Kernel (ck_tile::, ck::)
  kHipBlasLt,        // AMD hipBLASLt (Tensile-generated Cijk_..._UserArgs kernels)
  kTensile,          // AMD rocBLAS / Tensile (Cijk_ kernels)
  kAoTriton,         // AMD AOTriton (PyTorch SDPA flash on ROCm: attn_fwd)
  kVllmRocm,         // vLLM's ROCm custom paged attention (paged_attention_ll4mi)
  kTriton,           // Triton (inductor triton_*, vLLM unified attention, matmul_ogs)
  kFlashAttention2,  // Dao-AILab FlashAttention 2 (flash_fwd_kernel, flash::)
  kFlashAttention3,  // FlashAttention 3 (Hopper: FlashAttnFwdSm90)
  kFlashInfer,       // FlashInfer (flashinfer::, BatchPrefill/DecodeWithPagedKVCache)
  kCuBlas,           // NVIDIA cuBLAS / cuBLASLt (nvjet, xmma, ampere_/sm80_/sm90_ gemm)
  kCutlass,          // NVIDIA CUTLASS (cutlass::)
  kPyTorchNative,    // at::native:: kernels (unfused softmax, elementwise, ...)
};

enum class GpuVendor { kUnknown, kAmd, kNvidia };

struct KernelFamily {
  KernelLibrary library = KernelLibrary::kUnknown;
  GpuVendor vendor = GpuVendor::kUnknown;
  bool attention = false;  // an attention kernel
  bool fused = false;      // attention computed in one fused (flash-style) kernel
  bool paged = false;      // reads a paged KV cache
  bool hopper = false;     // built for NVIDIA Hopper (sm90): the trace ran on Hopper
};

// The family of a kernel by its (possibly mangled) name; kUnknown library when no rule matches.
KernelFamily kernel_family(std::string_view kernel_name);

// "AITER", "Composable Kernel", "hipBLASLt", ..., "" for kUnknown.
const char* kernel_library_name(KernelLibrary library);

// The vendor of a platform name as the run reports it ("MI300X" -> AMD, "H100" -> NVIDIA).
GpuVendor platform_vendor(std::string_view platform);
// Whether the platform is an NVIDIA Hopper GPU (H100, H200, H20, GH200).
bool platform_is_hopper(std::string_view platform);

}  // namespace loupe::compute
