#include "generic_op_kind.hpp"

#include <array>
#include <utility>

#include "loupe/text.hpp"

namespace loupe::generic {

namespace {

struct KindRule {
  std::string_view pattern;
  OpKind kind;
};

// First match wins: specific families before the broad memory patterns.
constexpr std::array<KindRule, 40> kRules{{
    {"_local_scalar_dense", OpKind::HostSync},
    {"all_reduce", OpKind::Communication},
    {"allgather", OpKind::Communication},
    {"all_gather", OpKind::Communication},
    {"reduce_scatter", OpKind::Communication},
    {"nccl", OpKind::Communication},
    {"rccl", OpKind::Communication},
    {"rmsnorm", OpKind::Normalization},
    {"rms_norm", OpKind::Normalization},
    {"layer_norm", OpKind::Normalization},
    {"layernorm", OpKind::Normalization},
    {"rotary", OpKind::Rotary},
    {"rope", OpKind::Rotary},
    {"attention", OpKind::Attention},
    {"fmha", OpKind::Attention},
    {"flash_attn", OpKind::Attention},
    {"kvcache", OpKind::KvCache},
    {"kv_cache", OpKind::KvCache},
    {"reshape_and_cache", OpKind::KvCache},
    {"kv_indices", OpKind::KvCache},
    {"page_indices", OpKind::KvCache},
    {"moe_forward", OpKind::MoeLayer},
    {"fused_moe", OpKind::MoeLayer},
    {"moe", OpKind::MoeRouting},
    {"topk", OpKind::MoeRouting},
    {"routing", OpKind::MoeRouting},
    {"bitmatrix", OpKind::MoeRouting},
    {"cijk_", OpKind::Gemm},
    {"matmul", OpKind::Gemm},
    {"gemm", OpKind::Gemm},
    {"softmax", OpKind::Softmax},
    {"_foreach_", OpKind::Optimizer},
    {"multi_tensor", OpKind::Optimizer},
    {"pool", OpKind::Pooling},
    {"triton_", OpKind::CompiledFused},
    {"copy", OpKind::CopyCast},
    {"quant", OpKind::CopyCast},
    {"index", OpKind::IndexGather},
    {"gather", OpKind::IndexGather},
    {"scatter", OpKind::IndexGather},
}};

constexpr std::array<std::string_view, 4> kMoreIndexOps{"embedding", "aten::cat", "arange",
                                                        "aten::stack"};

}  // namespace

bool is_graph_replay(std::string_view op_name) {
  const std::string name = text::ascii_lower(op_name);
  return name.rfind("hipgraphlaunch", 0) == 0 || name.rfind("cudagraphlaunch", 0) == 0;
}

OpKind classify_op_kind(std::string_view op_name) {
  const std::string name = text::ascii_lower(op_name);
  for (const auto& rule : kRules) {
    if (name.find(rule.pattern) != std::string::npos) return rule.kind;
  }
  for (const auto p : kMoreIndexOps) {
    if (name.find(p) != std::string::npos) return OpKind::IndexGather;
  }
  return OpKind::Other;
}

std::string op_kind_description(OpKind kind) {
  switch (kind) {
    case OpKind::HostSync:
      return "a device-to-host scalar read (`.item()`-style) that blocks the host until the GPU "
             "catches up";
    case OpKind::Gemm:
      return "a matrix multiply that the GEMM category filter did not match (miscategorized)";
    case OpKind::Attention:
      return "an attention kernel outside the SDPA categories (miscategorized)";
    case OpKind::Normalization:
      return "a normalization kernel (RMSNorm / LayerNorm) outside the norm category";
    case OpKind::Rotary:
      return "a rotary position-embedding kernel applied to the query and key tensors";
    case OpKind::KvCache:
      return "a KV-cache write or index-construction kernel of the inference server";
    case OpKind::MoeLayer:
      return "a whole mixture-of-experts layer (routing and expert GEMMs) launched as one op";
    case OpKind::MoeRouting:
      return "a mixture-of-experts routing / top-k / expert-dispatch kernel";
    case OpKind::Softmax:
      return "a standalone softmax, typically of an unfused attention or a classifier head";
    case OpKind::IndexGather:
      return "an index / gather / concatenation kernel that moves data without arithmetic";
    case OpKind::CopyCast:
      return "a copy, dtype cast or quantization kernel that only moves or converts data";
    case OpKind::Optimizer:
      return "a multi-tensor (foreach) optimizer or parameter-update kernel";
    case OpKind::Pooling:
      return "a pooling kernel";
    case OpKind::CompiledFused:
      return "a compiler-generated fused kernel";
    case OpKind::Communication:
      return "a collective-communication kernel";
    case OpKind::Other:
      break;
  }
  return "an operation with no specialised analyzer";
}

std::string op_kind_action(OpKind kind, std::string_view bound_type) {
  switch (kind) {
    case OpKind::HostSync:
      return "Remove the device-to-host read from the step (keep the value on the GPU, or read it "
             "once per N steps) so the host stops waiting on the GPU.";
    case OpKind::Gemm:
      return "Treat it as a GEMM: tune the BLAS library for this shape (offline GEMM tuning) or "
             "route it through the GEMM analysis so its roofline gap is measured.";
    case OpKind::Attention:
      return "Treat it as attention: analyze it with the SDPA analyzer and keep it on the fused "
             "flash / paged attention backend of the framework.";
    case OpKind::Normalization:
      return "Use the fused residual-add + normalization kernel of the framework (or "
             "`torch.compile`) so the norm is not a separate pass over the activations.";
    case OpKind::Rotary:
      return "Fuse the rotary embedding into the QKV projection epilogue or the attention kernel "
             "(the framework's fused-RoPE path, or `torch.compile`) to drop its extra read and "
             "write of Q and K.";
    case OpKind::KvCache:
      return "Fuse the KV-cache write into the attention kernel where the backend supports it, "
             "and tune the KV-cache block size (16 / 32 / 64).";
    case OpKind::MoeLayer:
      return "Analyze it as MoE (its expert GEMMs dominate): keep the fused-MoE backend of the "
             "serving framework and tune its kernel configuration (block sizes) for the "
             "observed token counts per expert.";
    case OpKind::MoeRouting:
      return "Use the fused MoE routing (top-k + sort + dispatch) kernel of the framework so "
             "routing is not a chain of small launches.";
    case OpKind::Softmax:
      return "If it belongs to attention, switch to the fused SDPA / flash path; otherwise fuse it "
             "with its neighbours via `torch.compile`.";
    case OpKind::IndexGather:
      return "Memory-bound data movement: fuse it into its consumer with `torch.compile`, or batch "
             "identically-shaped lookups upstream so each launch moves more data.";
    case OpKind::CopyCast:
      return "Remove the copy if it only makes tensors contiguous or changes dtype back and "
             "forth; otherwise fuse it into its producer with `torch.compile`.";
    case OpKind::Optimizer:
      return "Use the fused optimizer (`fused=True` on the torch.optim optimizer) so the update "
             "runs as one kernel per parameter group.";
    case OpKind::Pooling:
      return "Fuse the pooling with its neighbours via `torch.compile`, or use channels-last "
             "tensors so the pooling kernel reads contiguous memory.";
    case OpKind::CompiledFused:
      return "Re-compile the region with `torch.compile(mode=\"max-autotune\")` so the fused "
             "kernel's block sizes are autotuned for these shapes.";
    case OpKind::Communication:
      return "Analyze it with the collective-communication analysis; overlap it with compute.";
    case OpKind::Other:
      break;
  }
  if (bound_type == "compute") {
    return "Check for a library implementation of this op; otherwise profile its kernel for "
           "tile-size and occupancy tuning.";
  }
  if (bound_type == "memory") {
    return "Fuse it with neighbouring memory-bound ops via `torch.compile`, or remove it if it "
           "only reshapes data.";
  }
  return "Fuse it with its neighbours via `torch.compile`, or remove it if the model does not "
         "need it.";
}

}  // namespace loupe::generic
