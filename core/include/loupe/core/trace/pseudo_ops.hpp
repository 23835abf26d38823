// Pseudo ops (docs/contracts/trace_model.md §2.10): after the tree is built and before any
// table, ops that a serving engine runs as one host op over several kernels, or as a Python
// frame over a whole attention call, get a synthetic `cpu_op` above the part a perf model
// describes (a MoE GEMM's launch, an MLA or DeepSeek-V4 decode frame's children). The ops are
// events appended to the model (UID = the event count, `"Pseudo op": true`, shapes copied from
// a donor op) and nodes edited into the tree, exactly as TraceLens's reference pipeline
// creates them, quirks included. Each recognizer is its own file under
// core/src/trace/pseudo_ops/.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/trace_model.hpp"

namespace loupe::core::trace {

enum class PseudoOpKind : std::uint8_t {
  kMoeAiterFused,     // vllm::rocm_aiter_fused_moe's fmoe kernel
  kMoeTritonUnfused,  // vllm::moe_forward's matmul_ogs kernels (GPT-OSS)
  kMoeGptqAwq,        // vllm::outplace_fused_experts' fused_moe_kernel_gptq_awq kernels
  kMoeFlydsl,         // aiter::fused_moe_'s flydsl stage frames
  kMlaDecode,         // aiter/mla.py mla_decode_fwd frames
  kMlaPrefill,        // mla_fp8_prefill_attn frames
  kV4PagedDecode,     // DeepSeek-V4 sparse_attn_v4_paged_decode frames
};
std::string_view pseudo_op_kind_name(PseudoOpKind kind);

struct PseudoOpOptions {
  // The matmul_ogs MoE pseudo ops. Default mode turns them off: Loupe's own model of the whole
  // vllm::moe_forward row covers both GEMMs (docs/deviations.md, "MXFP4/FP8 MoE matmuls").
  bool moe_triton_unfused = true;
  // What the DeepSeek-V4 decode ops record as `v4_model_name` / `v4_tp` (TraceLens reads the
  // TL_MODEL and TL_TP environment variables; from_environment() does the same).
  std::optional<std::string> v4_model_name;
  std::int64_t v4_tp = 1;
  static PseudoOpOptions from_environment();
};

enum class RecognizerOutcome : std::uint8_t {
  kApplied,  // ran to the end (it may have created nothing)
  kFailed,   // stopped at an op TraceLens's extension raises on; ops created before it stay
};

struct RecognizerRun {
  PseudoOpKind kind = PseudoOpKind::kMoeAiterFused;
  RecognizerOutcome outcome = RecognizerOutcome::kApplied;
  std::size_t created = 0;
  std::string failure;  // why it stopped (kFailed)
};

struct PseudoOpReport {
  // A paged-attention op (`_rocm_C::paged_attention`, `aiter::paged_attention_v1`) in a trace
  // with ops to recognize: TraceLens's extension step fails as a whole there, so no pseudo op
  // is created.
  bool blocked_by_paged_attention = false;
  std::vector<RecognizerRun> runs;  // the recognizers the trace's op names selected, in order
  std::size_t created() const;
};

// Adds the pseudo ops to `model` and `tree` (built from `model`).
PseudoOpReport add_pseudo_ops(TraceModel& model, EventTree& tree, const PseudoOpOptions& options);

}  // namespace loupe::core::trace
