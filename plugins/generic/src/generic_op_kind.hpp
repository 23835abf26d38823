// What an uncategorized operation actually does, read from its name (and, for a GPU-graph or
// synthetic launch, the kernel name inside it): the basis of the findings' identification and
// of the concrete action. Heuristic: the prose says so.
#pragma once

#include <string>
#include <string_view>

namespace loupe::generic {

enum class OpKind {
  HostSync,       // aten::_local_scalar_dense: a device-to-host read (.item())
  Gemm,           // a matrix multiply outside the GEMM category
  Attention,      // an attention kernel outside the SDPA categories
  Normalization,  // RMSNorm / LayerNorm
  Rotary,         // rotary position embedding
  KvCache,        // KV-cache writes and index construction
  MoeLayer,       // a whole MoE layer (routing + expert GEMMs) launched as one op
  MoeRouting,     // MoE routing, top-k, expert dispatch
  Softmax,
  IndexGather,  // embedding, index, gather, scatter, concatenation, arange
  CopyCast,     // copies, dtype casts, quantization
  Optimizer,    // foreach / multi-tensor optimizer updates
  Pooling,
  CompiledFused,  // a compiler-generated fused kernel (Triton)
  Communication,
  Other,
};

OpKind classify_op_kind(std::string_view op_name);

// "a device-to-host scalar read", "a matrix multiply", ... (for "X is <description>").
std::string op_kind_description(OpKind kind);

// The concrete action for this kind of operation (memory- or compute-bound or unknown).
std::string op_kind_action(OpKind kind, std::string_view bound_type);

// True when the op was launched through a GPU graph (its name starts with the graph launch).
bool is_graph_replay(std::string_view op_name);

}  // namespace loupe::generic
