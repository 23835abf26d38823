// TraceLens's perf models, natively (docs/contracts/trace_model.md §3.9): which op names have a
// model (registry), the `op category` of any op (categorizer), parameter extraction with
// flops/bytes per family, and the metric columns derived from them (GFLOPS, Data Moved, roofline,
// …).
//
// Numbers follow Python's arithmetic: integer formulas are evaluated exactly and turned into a
// double where Python would (true division), float formulas in Python's operation order.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "loupe/compute/py_literal.hpp"
#include "loupe/json_value.hpp"

namespace loupe::core::prepare::perf {

// ---------------------------------------------------------------------------------------------
// Registry (§3.9.0, §3.9.2)

// The perf-model classes Loupe knows. A class without a formula (kConvBiasBwd; kExtension, the
// descriptor default no registered name keeps) exists in TraceLens, so the op is modeled and
// categorized, but computing its metrics reports ModelError::Unsupported.
enum class ModelClass : std::uint8_t {
  // GEMM
  kAtenMm,
  kAtenAddmm,
  kAtenBmm,
  kAtenBaddbmm,
  kAtenScaledMm,
  // Library GEMM entry points (gemm_library.cpp), each on its argument layout.
  kTeGemmTs,              // tex_ts::te_gemm_ts: column-major A [4 = transa], B [5]
  kTePseudoGemm,          // TE v2 _Linear*/_LayerNormLinear* pseudo GEMMs: A [M,K] @ B [K,N]
  kVllmGemmDynamicQuant,  // first two 2-D shapes: x [M,K], weight [N,K]
  kHipblasltGemmFp8,      // (A, scaleA, B, scaleB, dtype, transA, transB, transC, …)
  kHipblasltGemmFp4,      // the same with MXFP4 operands (K packed two per byte)
  kAiterGemmA4W4,         // (A, B, scaleA, scaleB, …) MXFP4, NT
  kVllmUnquantizedGemm,   // vllm::rocm_unquantized_gemm: x[M,K] @ weight[N,K]^T (+ bias)
  // Serving-engine GEMM extensions (AITER / SGLang / vLLM wrappers): x[M,K] @ w[N,K]^T with the
  // argument layout and byte widths of each kernel (docs/deviations.md, "Serving-engine ops").
  kAiterGemmA8W8Blockscale,  // FP8/INT8 block-scaled: (x, w, x_scale, w_scale, ...)
  kAiterGemmA16W16,          // (x, w, bias, dtype, ...): output in x's dtype
  kAiterGemmA16W16Atomic,    // (x, w, ..., y): output dtype = Input type[3]
  kAiterGemmA16W16Asm,       // (x, w, y, workspace): output dtype = Input type[2]
  kAiterGemmAfp4Wfp4,        // MXFP4 x and w packed two per byte: K = 2 * x[1]
  kAiterBatchedGemmA16Wfp4,  // x[B,M,K] bf16 @ w[B,N,K/2] fp4
  kAiterBatchedGemmA8W8,     // x[B,M,K] or [M,B,K] @ w[B,N,K] int8/fp8
  // Primus-Turbo / CK grouped GEMMs (grouped_gemm.cpp)
  kGroupedGemm,           // shared K and N: X [M, K], W [G, K, N] (or per-group shape lists)
  kGroupedGemmVariableK,  // per-group K: summed over the groups
  // CONV
  kAtenConv,
  kAtenConvBwd,
  kConvBias,  // ConvBias_ / ConvBiasReLU_: (input, weight, bias, stride int, padding int)
  // ConvBias_Backward / ConvBiasReLU_Backward: no formula. TraceLens takes their parameters
  // from the forward op of the same sequence number; Loupe's models see one op's arguments.
  kConvBiasBwd,
  // SDPA
  kSdpaFlash,
  kSdpaEfficient,
  kSdpaCudnn,
  kFlashAttn,       // flash_attn::_flash_attn_forward, FlashAttnFunc
  kAiterFlashAttn,  // aiter::_flash_attn_forward, aiter::mha_fwd, aiter::fmha_v3_fwd
  // Flash-attention library entry points (flash_attention.cpp), each on its argument layout.
  kFlashAttnBwd,           // flash_attn::_flash_attn_backward
  kFlashAttnVarlen,        // flash_attn::_flash_attn_varlen_forward (packed sequences)
  kFlashAttnVarlenBwd,     // flash_attn::_flash_attn_varlen_backward
  kFlashAttnV3,            // flash_attn_3::fwd
  kAiterFlashAttnBwd,      // aiter::_flash_attn_backward
  kAiterFmhaV3Wrapper,     // aiter::wrapper_fmha_v3_fwd
  kAiterFmhaV3WrapperBwd,  // aiter::wrapper_fmha_v3_bwd
  kAiterMhaBwd,            // aiter::mha_bwd
  kEvoformer,              // EvoformerAttention (5-D Q/K/V)
  kInferenceAttention,     // serving-engine attention timed on a step annotation (vLLM)
  // Its variants (docs/deviations.md, "Serving-engine ops"): each reads its own layout.
  kInferenceAttentionVHead,  // d_v from V = Input Dims[2] (FMHA v3 varlen, batch prefill, MLA)
  kPagedAttentionRagged,     // SGLang: Q = [2], paged K/V caches = [3]/[4]
  kPagedDecodeGluon,         // AITER: decode only, FP8 KV cache, sliding window
  kMlaTilelangSparse,        // SGLang TileLang sparse MLA: d_v = 512
  kSparsePagedPrefill,       // AITER DeepSeek-V4 sparse prefill: (token, slot) pairs
  kGatedDeltaNet,            // recurrent linear attention (GDN), no KV cache
  // DeepSeek-V4 sparse paged decode pseudo ops: the step's decode counts, one latent KV head
  // and a per-mode KV span (sliding window; compressed / hierarchical history).
  kV4PagedDecodeSwa,
  kV4PagedDecodeCsa,
  kV4PagedDecodeHca,
  kStoreCache,  // SGLang KV-cache store: K/V rows scattered into the cache
  // RoPE kernels (category RoPE_fwd): 3 flops per rotated element
  kRopeCachedPositions2c,  // AITER: Q = Input Dims[2], K = [3]
  kRotaryEmbeddingSgl,     // SGLang: in place on Q [1] and K [2], rotary slice only
  kRopeCatAndCacheMla,     // AITER MLA RoPE + KV-cache write (FusedRoPE sheet)
  kRopeConcatAndCacheMla,  // the same with one latent KV head and an FP8 Q output
  kMixedSample,            // AITER exponential-noise sampling over the vocabulary
  // Elementwise
  kUnaryElementwise,
  kReplicationPad,
  // Gated activations out = act(x[..., :d]) * x[..., d:] with (out, input) args: silu (5
  // flops per output element), erf gelu (8), tanh gelu (10).
  kGatedSilu,
  kGatedGelu,
  kGatedGeluTanh,
  kUpsampleNearest,
  kBinaryElementwise,
  kLigerSiLUMul,  // LigerSiLUMulFunction(a, b): binary elementwise, output in the inputs' width
  // Activation quantization (category GroupQuant)
  kPerGroupQuant,            // AITER per-token/group/tensor FP8: (out, input, scales, ...)
  kVllmTritonGroupQuantFp8,  // vLLM: (x[M,N], group_size)
  kMxfp4QuantFlatten,        // MXFP4 of Input Dims[0], its stride read
  kMxfp4QuantX0,             // MXFP4 of Input Dims[0]
  kMxfp4QuantX1,             // MXFP4 of Input Dims[1] (the output comes first)
  kMxfp4QuantX2,             // MXFP4 of Input Dims[2] (+ MoE sort)
  kMxfp4QuantMoeSort,        // MXFP4 of Input Dims[2], its stride read (+ MoE sort)
  // Primus-Turbo quantizers (UnaryElementwise classes in TraceLens; primus_ops.cpp)
  kPrimusQuantizeFp8,        // bf16 [M, N] -> FP8 tensorwise
  kPrimusQuantizeMxfp4Dual,  // bf16 [M, N] -> row- and column-wise MXFP4 with scales
  // Reductions
  kReduce,
  // Normalization
  kBatchNorm,
  kBatchNormBwd,
  kLayerNorm,
  kLayerNormBwd,
  kGroupNorm,
  kGroupNormBwd,
  kInstanceNorm,
  kInstanceNormBwd,
  kRmsNorm,
  kRmsNormBwd,
  kFusedLnModulate,     // primus::fused_ln_modulate: x [T, B, H], scale/shift [B, H]
  kFusedLnModulateBwd,  // primus::fused_ln_modulate_backward: grad_out [T, B, H], …
  // Serving-engine RMSNorm kernels (category and sheet "RMSNorm"): aten RMSNorm's formulas on
  // each kernel's argument layout, plus what it fuses.
  kRmsNormAiterX0,           // (x, weight, ...)
  kRmsNormAiterX1,           // (out, x, weight, ...)
  kRmsNormDynamicQuant,      // + per-token FP8 quant: (out, x, scale, weight, ...)
  kRmsNormGroupQuant,        // + per-group FP8 quant, group size = Concrete Inputs[5]
  kRmsNormAddCk,             // + residual add: (out, x, residual_in, residual_out, weight, ...)
  kRmsNormFp8GroupQuant,     // vLLM: (x, weight, eps, group_size)
  kRmsNormAddFp8GroupQuant,  // vLLM: (x, residual, weight, eps, group_size)
  kRmsNormAddPad,            // + residual add, output padded to Concrete Inputs[4]
  kRmsNormMxfp4Quant,        // + MXFP4 output, optional second input and residual
  // AITER MoE kernels (MoE_fused / MoE_unfused), each on its own argument layout
  kMoeFused1Stage,      // pseudo op: (input, w1, w2, topk_weights, ...)
  kMoeFusedBlockscale,  // fmoe: (out, input, w1, w2, ...), k = Concrete Inputs[8]
  kMoeCktileUp,         // (input [M,K], w1, out [M,k,N], ...)
  kMoeCktileDown,       // (input [M,k,N], w2 [E,K,N], out, ...)
  kMoeCkStage1,         // (input, w1, w2, ..., out [M,k,N] = [6])
  kMoeCkStage2,         // (inter_states [M,k,N], w1, w2, ...)
  kMoeFlydslStage1,     // pseudo op: fused_moe_'s (input, w1, w2, topk weights), up
  kMoeFlydslStage2,     // the same args, down projection
  // Pseudo ops whose top-k (and gating) are the pseudo op's own args (OpArgs::pseudo_args)
  kMoeTritonUnfusedUp,    // vLLM Triton MoE: (hidden [T, H], router [T, E]), I = H
  kMoeTritonUnfusedDown,  // the same, down projection
  kMoeGptqAwqUp,          // vLLM GPTQ/AWQ: (hidden [T, K], w1 [E, 2N, K/2], …) INT4
  kMoeGptqAwqDown,        // (hidden, w1, w2 [E, K, N/2], …)
  kMoeTritonGroupedGemm,  // SGLang invoke_fused_moe_kernel: (A, B [E,N,K], …, topk_ids [8])
  // Custom collectives (CustomCollective): one GPU's HBM traffic, no compute spec
  kCustomAllReduce,         // (handle, input [1], out [2], ...)
  kCustomShardCollective,   // reduce-scatter / all-gather: (handle, input [1], out [2])
  kRegAllGatherIntoTensor,  // SGLang: (out [0], shard [1], handle)
  kAllReduceRmsnorm,        // AITER C++ op: input [2], weight [6]
  kAllReduceRmsnormPy,      // AITER Python op: input [0], weight [2]
  // MoE auxiliary kernels (MoE_aux)
  kMoeSortScatterGather,  // aiter::moe_sorting_fwd, aiter::mxfp4_moe_sort_hip
  kBiasedGroupedTopk,     // aiter::biased_grouped_topk_hip
  kAppendSharedExperts,   // SGLang fused_append_shared_experts: (ids [M,k], weights [M,k])
  kTopkSoftplus,          // aiter::topk_softplus: (weights [M,k], ids, gating [M,E], …)
  // DeepSeek-V4 manifold hyper-connection kernels (mHC; mhc.cpp)
  kMhcPost,               // (out [M,n,C], x [M,C], residual, mixes, …)
  kMhcPreGemmSqrsum,      // (out [split_k,M,hc3], sqrsum, x [M,n,C], fn [hc3,K], …)
  kMhcPreBigFuseRmsnorm,  // (post_mix, comb_mix, out [M,C], gemm_out [split_k,M,hc3], …)
  kMhcFusedPostPreGemm,   // (gemm_out, sqrsum, next_residual, layer_input [M,C], …, fn [7])
  // Training-side autograd functions (training_ops.cpp)
  kMoeComm,        // MoEDispatch / MoECombine: tokens [T, H] moved, no flops
  kCausalConv1d,   // DaoAILab::_causal_conv1d_fwd_cpp: x [B, C, L], w [C, k]
  kFusedRopeFunc,  // FusedRoPEFunc: t [S, B, H, D]
  kCrossEntropy,   // CrossEntropyFunction: logits [B, …, V]
  kMambaSsd,       // MambaSplitConv1dScanCombinedFn (Mamba-2 SSD)
  // Inductor-generated triton_poi_/triton_red_/triton_per_ kernels (resolved by name prefix)
  kTritonCompiled,
  // Extension descriptor default before a name sets its class (no formula)
  kExtension,
};

enum class Maf : std::uint8_t { kMatrix, kVector };

struct ModelInfo {
  ModelClass model_class;
  std::string_view category;      // class `category`, e.g. "GEMM", "CONV_fwd", "elementwise"
  std::string_view bwd_category;  // class `bwd_category`; empty = None
  std::string_view sheet_family;  // report sheet family, e.g. "GEMM", "CONV", "Reduce"
  Maf maf;
  bool has_backward;  // flops_bwd/bytes_bwd are defined (else "not implemented")
};

// Op name -> model: the exact-name table (op_to_perf_model_class_map incl. pseudo/extension
// ops), then the name matchers (inductor `triton_poi_/triton_red_/triton_per_` prefixes ->
// kTritonCompiled, category "triton", no report sheet); nullptr when the name has no model.
const ModelInfo* find_model(std::string_view op_name);

// §3.6.1 has_model(e) from the op name alone (same resolution as find_model).
bool has_model(std::string_view op_name);

// Category-only names of §3.9.1 step 1 (e.g. aten::miopen_convolution -> CONV_fwd); nullopt
// when the name is not in that table. On overlap with a model, this category wins.
std::optional<std::string_view> category_only(std::string_view op_name);

// Every sheet family and its op names, in registry order (the per-family sheets of §3.7).
const std::vector<std::pair<std::string_view, std::vector<std::string_view>>>& sheet_families();

// §3.9.1 categorizer. `first_kernel_name` = name of the row's first kernel_details entry
// (empty when the row has none).
std::string op_category(std::string_view op_name, std::string_view first_kernel_name);

// ---------------------------------------------------------------------------------------------
// Models (§3.9.4–§3.9.9)

// An op's trace args (as the trace JSON holds them; null when absent) and the names of the
// kernels the model may inspect (GEMM transpose flags), in kernel_details order.
struct OpArgs {
  Json input_dims;
  Json input_types;
  Json input_strides;
  Json concrete_inputs;
  std::vector<std::string> kernel_names;
  // The serving engine's step annotation enclosing the op ("NA" when none), for the ops the
  // tree annotates (EventTree::step_annotation); nullopt otherwise.
  std::optional<std::string> step_annotation;
  // The args TraceLens's pseudo-op creation attaches to a pseudo op besides the shapes
  // ("MoE topk", "MoE GEMM gated", the DeepSeek-V4 decode's "v4_*"), as a JSON object; null
  // for trace ops. trace_op_args() fills it for the pseudo ops of trace/pseudo_ops.hpp.
  Json pseudo_args;
  // For the backward ops whose parameters come from their forward op (forward_op_name below):
  // the args of the forward op of the same sequence number, or null when the trace has none.
  std::shared_ptr<const OpArgs> forward;
};

// The forward op a backward op takes its parameters from, matched by sequence number
// (ConvBias_Backward -> ConvBias_, ConvBiasReLU_Backward -> ConvBiasReLU_); nullopt for every
// other op.
std::optional<std::string_view> forward_op_name(std::string_view backward_op_name);

// Whether the class checks the op's trace args before modeling it (can_model below); only the
// inductor model does.
inline bool model_checks_args(const ModelInfo& info) {
  return info.model_class == ModelClass::kTritonCompiled;
}

// §3.6.1 has_model(e) including the class's can_model check on the op's trace args: an
// inductor op is modelable only when its args describe the kernel (non-empty Concrete Inputs,
// Input Dims and Input type giving at least one launch size); every other model passes.
bool can_model(std::string_view op_name, const OpArgs& args);

// Python ints in the formulas can exceed int64 (products of shapes): 128-bit.
__extension__ typedef __int128 PyInt;

// A Python number as TraceLens computes it: an exact int or a float. Not the SDK's
// loupe::PyNumber: the formulas' ints outgrow int64 (PyInt above).
struct FormulaNumber {
  bool is_int = true;
  PyInt i = 0;
  double f = 0.0;

  static FormulaNumber from_int(PyInt v) { return {true, v, 0.0}; }
  static FormulaNumber from_float(double v) { return {false, 0, v}; }
  double to_double() const;  // float(x)
  bool positive() const { return is_int ? i > 0 : f > 0.0; }
  bool zero() const { return is_int ? i == 0 : f == 0.0; }
};

enum class ModelError : std::uint8_t {
  kNone,
  kNotImplemented,  // NotImplementedError: the row is dropped (§3.6.2, §3.7)
  kFailed,          // any other exception: unified row kept with perf_params None
  kUnsupported,     // the class exists in TraceLens but Loupe has no formula for it
};

using Params = std::vector<std::pair<std::string, compute::PyValue>>;

struct ModelResult {
  ModelError error = ModelError::kNone;
  std::string message;
  Params params;                       // ordered param_details (param: <key> / perf_params)
  FormulaNumber flops;                 // forward (or backward when asked) flops
  std::optional<FormulaNumber> bytes;  // nullopt = None (unknown bpe)
  std::string compute_spec;            // "<maf>_<precision>" or "" when the precision is unknown
  bool ok() const { return error == ModelError::kNone; }
};

enum class Direction : std::uint8_t { kForward, kBackward };

// Build the model for `op_name` from its args and compute flops/bytes (forward, or the model's
// backward formulas). Op names without a model, or whose class Loupe has no formula for,
// report kUnsupported.
ModelResult evaluate(std::string_view op_name, const OpArgs& args,
                     Direction direction = Direction::kForward);

// Python repr() of the params dict (unified_perf_summary `perf_params`).
std::string params_repr(const Params& params);

// ---------------------------------------------------------------------------------------------
// Metrics (§3.9.3)

// Bytes per element of a dtype string (name2bpe, case-insensitive); nullopt = unknown.
std::optional<int> bytes_per_element(std::string_view dtype);
// Compute precision of a dtype string (torch_dtype_map); empty when unmapped.
std::string compute_precision(std::string_view dtype);

struct Arch {
  double mem_bw_gbps = 0.0;
  std::map<std::string, double, std::less<>> max_achievable_tflops;  // "matrix_bf16" -> 708
};
// Parses an arch JSON document ({"mem_bw_gbps": …, "max_achievable_tflops": {…}}).
std::optional<Arch> parse_arch_json(std::string_view json_text);

struct Metrics {
  double gflops = 0.0;
  std::optional<double> data_moved_mb;  // nullopt when bytes unknown
  double flops_per_byte = 0.0;          // NaN when bytes unknown or 0
  double tflops_per_s = 0.0;            // NaN when kernel time is 0
  double tb_per_s = 0.0;                // NaN when bytes unknown or kernel time 0
  std::string compute_spec;
  // Only with an arch and a known peak for compute_spec, known bytes and flops > 0.
  std::optional<double> roofline_time_us;
  std::string roofline_bound;  // "COMPUTE_BOUND" / "MEMORY_BOUND" / ""
  double pct_roofline = 0.0;   // NaN when no roofline or kernel time 0
};

Metrics compute_metrics(const ModelResult& result, double kernel_time_us, const Arch* arch);

}  // namespace loupe::core::prepare::perf
