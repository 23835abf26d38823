// Which attention implementation an SDPA operation uses, from its name and its kernels:
// paged (vLLM-style KV cache), flash (fused), or standard (no fused marker: unfused).
#pragma once

#include <string_view>

namespace loupe::sdpa {

enum class AttentionType { Paged, Flash, Standard };

// "flash", "fmha", "flash_attention", "flashattn" in the op name (case-insensitive).
bool is_flash_attention(std::string_view op_name);

// "unified_attention", "paged_attention", "vllm" in the op name, or a paged-attention kernel
// ("kernel_paged_attention", "paged_attention_2d") in the kernel details text.
bool is_paged_attention(std::string_view op_name, std::string_view kernel_details);

AttentionType attention_type(std::string_view op_name, std::string_view kernel_details);

// "paged", "flash", "standard" (the metrics spelling).
const char* attention_type_name(AttentionType type);

}  // namespace loupe::sdpa
