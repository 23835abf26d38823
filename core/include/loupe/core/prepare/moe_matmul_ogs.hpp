// Default-mode model of the MXFP4/FP8 mixture-of-experts matmuls of triton_kernels
// (`_matmul_ogs_*`: vLLM's GPT-OSS MoE path), beyond TraceLens (docs/deviations.md,
// "MoE matmuls (matmul_ogs)"). What the kernel name says (layout, dtypes, tile, fused
// activation) is always known; FLOPs and bytes need the MoE layer's shapes, which the trace
// shows on the enclosing `vllm::moe_forward` op (hidden states [tokens, hidden], router logits
// [tokens, experts]) and its TopK child (k). Without them the row says why it has no numbers.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "loupe/core/prepare/perf_model.hpp"

namespace loupe::core::prepare::perf {

// What a `_matmul_ogs_<layout>_<out>x<act>x<weight>_<BM>x<BN>x<BK>x<split-k>[_<act>]` name says.
struct MatmulOgsKernel {
  std::string layout;        // operand layout letters, e.g. "NNT"
  std::string out_dtype;     // e.g. "bf16"
  std::string act_dtype;     // activation (x) dtype, e.g. "bf16"
  std::string weight_dtype;  // expert weight dtype, e.g. "mxfp4", "float8_e4m3fn"
  std::int64_t block_m = 0, block_n = 0, block_k = 0, split_k = 0;
  std::string fused_activation;  // "swiglu" (gated up projection), "" otherwise
  bool gated() const { return !fused_activation.empty(); }
};

// Whether a kernel belongs to the matmul_ogs family (TraceLens's test: "matmul_ogs" in the name).
bool is_matmul_ogs_kernel(std::string_view kernel_name);
// The parsed name; nullopt when the name does not follow the pattern above.
std::optional<MatmulOgsKernel> parse_matmul_ogs_kernel(std::string_view kernel_name);

// Bytes per element of a triton_kernels dtype token (bf16/fp16 2, fp32 4, FP8 1, MXFP4 0.5 +
// 1/32: two values per byte plus one E8M0 scale byte per block of 32); nullopt when unknown.
std::optional<double> moe_dtype_bytes(std::string_view dtype);

// The MoE layer's shapes. The intermediate size comes from the expert weights the matmul reads
// (expert_intermediate_size below); when the trace does not show them it is taken equal to the
// hidden size (GPT-OSS's configuration), and the params say which.
struct MoeLayerShape {
  std::int64_t tokens = 0;
  std::int64_t hidden = 0;
  std::int64_t experts = 0;
  std::int64_t topk = 0;
  std::optional<std::int64_t> intermediate;
};

// The intermediate size from the expert weight tensor a matmul_ogs call reads, [E, K, N] with K
// stored two values per byte for MXFP4 (`packed`): the gated up projection maps the hidden size
// to the gate and up halves (K = hidden, N = 2·I), the down projection maps I back (K = I,
// N = hidden). nullopt when the weights do not fit the layer (another expert count, neither
// side the hidden size, an odd gated width).
std::optional<std::int64_t> expert_intermediate_size(std::span<const std::int64_t> weight_dims,
                                                     bool packed, bool gated,
                                                     const MoeLayerShape& layer);

enum class MoeEvidence : std::uint8_t {
  kModeled,    // shapes from the trace's MoE op and its TopK
  kHeuristic,  // kernel name only: no FLOPs or bytes
};

// One matmul_ogs kernel: the up projection when its name fuses a gated activation, else the
// down projection. With shapes: FLOPs 2·T·k·H·I (×2 gated), bytes from the input, the weights
// of the experts a uniform router activates (E·(1 − ((E − k)/E)^T)) and the output; compute
// spec from the activation dtype (the weights are dequantized on the fly). Without shapes:
// the params (evidence "heuristic", the reason) and ModelError::kFailed.
ModelResult matmul_ogs_model(const MatmulOgsKernel& kernel,
                             const std::optional<MoeLayerShape>& shape,
                             std::string_view missing_reason);

}  // namespace loupe::core::prepare::perf
