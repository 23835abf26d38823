// The op-name tables of TraceLens's perf models (docs/contracts/trace_model.md §3.9.1,
// §3.9.2): exact op name -> model class with its category, backward category and report sheet
// family, plus the category-only names. Adding an op family = one row in kModelRows.
#include <algorithm>
#include <initializer_list>
#include <iterator>
#include <string>
#include <unordered_map>
#include <vector>

#include "loupe/core/prepare/perf_model.hpp"

namespace loupe::core::prepare::perf {
namespace {

using MC = ModelClass;

// Class descriptors, shared by every op name of the class.
constexpr ModelInfo kGemm{MC::kAtenMm, "GEMM", "", "GEMM", Maf::kMatrix, false};
constexpr ModelInfo kConv{MC::kAtenConv, "CONV_fwd", "CONV_bwd", "CONV", Maf::kMatrix, true};
constexpr ModelInfo kConvBwd{MC::kAtenConvBwd, "CONV_bwd", "CONV_bwd", "CONV", Maf::kMatrix, true};
constexpr ModelInfo kSdpa{MC::kSdpaFlash, "SDPA_fwd", "SDPA_bwd", "SDPA", Maf::kMatrix, true};
constexpr ModelInfo kSdpaBwd{MC::kFlashAttnBwd, "SDPA_bwd", "SDPA_bwd", "SDPA", Maf::kMatrix, true};
constexpr ModelInfo kUnary{MC::kUnaryElementwise, "elementwise", "",
                           "UnaryElementwise",    Maf::kVector,  false};
constexpr ModelInfo kBinary{MC::kBinaryElementwise, "elementwise", "",
                            "BinaryElementwise",    Maf::kVector,  false};
// Reduce declares bwd_category None but does define backward formulas (Reduce_bwd sheet).
constexpr ModelInfo kReduce{MC::kReduce, "reduce", "", "Reduce", Maf::kVector, true};
// Forward norm classes raise "not implemented" for their backward (the *_backward ops carry
// their own model).
constexpr ModelInfo kNorm{MC::kBatchNorm,  "NORM_fwd",   "NORM_bwd",
                          "Normalization", Maf::kVector, false};
constexpr ModelInfo kNormBwd{MC::kBatchNormBwd, "NORM_bwd",   "",
                             "Normalization",   Maf::kVector, false};

constexpr ModelInfo with(ModelInfo base, ModelClass model_class) {
  base.model_class = model_class;
  return base;
}

// An extension class Loupe has no formula for: only its category/sheet matter.
constexpr ModelInfo extension(std::string_view category, std::string_view bwd_category,
                              std::string_view sheet, Maf maf) {
  return {MC::kExtension, category, bwd_category, sheet, maf, false};
}

struct Row {
  std::string_view name;
  ModelInfo info;
};

// op_to_perf_model_class_map, in TraceLens's insertion order (which is the sheet order).
const std::vector<Row>& model_rows() {
  static const std::vector<Row> rows = [] {
    std::vector<Row> r;
    const auto add = [&r](std::string_view name, ModelInfo info) { r.push_back({name, info}); };
    // GEMM (no backward formulas).
    add("aten::mm", with(kGemm, MC::kAtenMm));
    add("aten::addmm", with(kGemm, MC::kAtenAddmm));
    add("aten::_scaled_mm", with(kGemm, MC::kAtenScaledMm));
    add("trtllm::cublas_scaled_mm", with(kGemm, MC::kAtenScaledMm));
    add("bitsandbytes::int8_linear_matmul", with(kGemm, MC::kAtenScaledMm));
    add("aten::bmm", with(kGemm, MC::kAtenBmm));
    add("tex_ts::te_gemm_ts", with(kGemm, MC::kTeGemmTs));
    add("aten::baddbmm", with(kGemm, MC::kAtenBaddbmm));
    add("vllm::gemm_with_dynamic_quant", with(kGemm, MC::kVllmGemmDynamicQuant));
    // SDPA / flash attention.
    add("FlashAttnFunc", with(kSdpa, MC::kFlashAttn));
    add("flash_attn::_flash_attn_forward", with(kSdpa, MC::kFlashAttn));
    add("flash_attn::_flash_attn_backward", with(kSdpaBwd, MC::kFlashAttnBwd));
    add("flash_attn::_flash_attn_varlen_forward", with(kSdpa, MC::kFlashAttnVarlen));
    add("flash_attn::_flash_attn_varlen_backward", with(kSdpaBwd, MC::kFlashAttnVarlenBwd));
    add("aten::_scaled_dot_product_cudnn_attention", with(kSdpa, MC::kSdpaCudnn));
    add("aten::_scaled_dot_product_efficient_attention", with(kSdpa, MC::kSdpaEfficient));
    add("aten::_scaled_dot_product_flash_attention", with(kSdpa, MC::kSdpaFlash));
    // CONV.
    add("aten::convolution", with(kConv, MC::kAtenConv));
    add("aten::convolution_backward", kConvBwd);
    add("ConvBias_", with(kConv, MC::kConvBias));
    add("ConvBiasReLU_", with(kConv, MC::kConvBias));
    add("ConvBias_Backward", with(kConvBwd, MC::kConvBiasBwd));
    add("ConvBiasReLU_Backward", with(kConvBwd, MC::kConvBiasBwd));
    // More attention variants.
    add("aiter::_flash_attn_forward", with(kSdpa, MC::kAiterFlashAttn));
    add("aiter::_flash_attn_backward", with(kSdpaBwd, MC::kAiterFlashAttnBwd));
    add("aiter::wrapper_fmha_v3_fwd", with(kSdpa, MC::kAiterFmhaV3Wrapper));
    add("aiter::wrapper_fmha_v3_bwd", with(kSdpaBwd, MC::kAiterFmhaV3WrapperBwd));
    // aiter::_flash_attn_forward's argument layout.
    add("aiter::mha_fwd", with(kSdpa, MC::kAiterFlashAttn));
    add("aiter::fmha_v3_fwd", with(kSdpa, MC::kAiterFlashAttn));
    add("aiter::mha_bwd", with(kSdpaBwd, MC::kAiterMhaBwd));
    add("flash_attn_3::fwd", with(kSdpa, MC::kFlashAttnV3));
    add("EvoformerAttention", with(kSdpa, MC::kEvoformer));
    add("LigerSiLUMulFunction", with(kBinary, MC::kLigerSiLUMul));
    // Grouped GEMM (primus turbo).
    const ModelInfo grouped =
        extension("GroupedGEMM_fwd", "GroupedGEMM_bwd", "GroupedGEMM", Maf::kMatrix);
    for (const char* n :
         {"primus_turbo::grouped_gemm", "primus_turbo::grouped_gemm_impl",
          "primus_turbo_cpp_extension::grouped_gemm", "primus_turbo::grouped_gemm_variable_k",
          "primus_turbo::grouped_gemm_variable_k_impl",
          "primus_turbo_cpp_extension::grouped_gemm_variable_k",
          "primus_turbo_cpp_extension::ck_grouped_gemm",
          "primus_turbo_cpp_extension::ck_grouped_gemm_variable_k"}) {
      const bool variable_k = std::string_view(n).find("variable_k") != std::string_view::npos;
      add(n, with(grouped, variable_k ? MC::kGroupedGemmVariableK : MC::kGroupedGemm));
    }
    // TE-v2 pseudo GEMMs.
    for (const char* n : {"_Linear_yfwd_mm", "_LinearBackward_xgrad_mm", "_LinearBackward_wgrad_mm",
                          "_LayerNormLinear_yfwd_mm", "_LayerNormLinearBackward_xgrad_mm",
                          "_LayerNormLinearBackward_wgrad_mm"}) {
      add(n, with(kGemm, MC::kTePseudoGemm));
    }
    // Training-side autograd functions: only the MoE communication and Mamba classes declare a
    // backward category with backward formulas.
    const ModelInfo moe_comm{MC::kMoeComm, "MoE_comm_fwd", "MoE_comm_bwd",
                             "MoE_comm",   Maf::kVector,   true};
    add("MoEDispatch", moe_comm);
    add("MoECombine", moe_comm);
    add("DaoAILab::_causal_conv1d_fwd_cpp",
        with(extension("SSM_fwd", "", "SSM", Maf::kMatrix), MC::kCausalConv1d));
    add("FusedRoPEFunc", with(extension("RoPE_fwd", "", "RoPE", Maf::kVector), MC::kFusedRopeFunc));
    add("CrossEntropyFunction",
        with(extension("CrossEntropy_fwd", "", "CrossEntropy", Maf::kVector), MC::kCrossEntropy));
    add("MambaSplitConv1dScanCombinedFn",
        ModelInfo{MC::kMambaSsd, "SSM_fwd", "SSM_bwd", "SSM", Maf::kMatrix, true});
    for (const auto& [n, model_class] : std::initializer_list<std::pair<const char*, ModelClass>>{
             {"primus_turbo_cpp_extension::hipblaslt_gemm_fp8", MC::kHipblasltGemmFp8},
             {"primus_turbo::hipblaslt_gemm_fp8", MC::kHipblasltGemmFp8},
             {"primus_turbo_cpp_extension::hipblaslt_gemm_fp4", MC::kHipblasltGemmFp4},
             {"primus_turbo::hipblaslt_gemm_fp4", MC::kHipblasltGemmFp4},
             {"aiter::gemm_a4w4", MC::kAiterGemmA4W4},
             {"aiter::_gemm_a4w4_asm", MC::kAiterGemmA4W4}}) {
      add(n, with(kGemm, model_class));
    }
    const ModelInfo quant = extension("GroupQuant", "", "GroupQuant", Maf::kVector);
    // Primus's quantize kernels are unary elementwise classes in TraceLens (not GroupQuant).
    for (const char* n : {"primus_turbo_cpp_extension::quantize_fp8_tensorwise",
                          "primus_turbo::quantize_fp8_tensorwise"}) {
      add(n, with(kUnary, MC::kPrimusQuantizeFp8));
    }
    for (const char* n : {"primus_turbo_cpp_extension::quantize_mxfp4_dual",
                          "primus_turbo::quantize_mxfp4_dual", "primus::quantize_mxfp4_dual"}) {
      add(n, with(kUnary, MC::kPrimusQuantizeMxfp4Dual));
    }
    // Pseudo-op / inference extensions (get_pseudo_op_mappings).
    const ModelInfo moe_fused = extension("MoE_fused", "", "MoE_fused", Maf::kMatrix);
    const ModelInfo moe_unfused = extension("MoE_unfused", "", "MoE_unfused", Maf::kMatrix);
    const ModelInfo moe_aux = extension("MoE_aux", "", "MoE_aux", Maf::kVector);
    const ModelInfo inference =
        extension("InferenceAttention", "", "InferenceAttention", Maf::kMatrix);
    const ModelInfo rmsnorm = extension("RMSNorm", "", "RMSNorm", Maf::kVector);
    const ModelInfo collective =
        extension("CustomCollective", "", "CustomCollective", Maf::kVector);
    const ModelInfo rope = extension("RoPE_fwd", "RoPE_bwd", "RoPE", Maf::kVector);
    // RoPE fused with the MLA KV-cache write: RoPE_fwd on its own "FusedRoPE" sheet.
    const ModelInfo fused_rope = extension("RoPE_fwd", "", "FusedRoPE", Maf::kVector);
    // DeepSeek-V4 manifold hyper-connection kernels (mHC): their own category and sheet.
    const ModelInfo mhc = extension("mHC", "", "mHC", Maf::kVector);
    const ModelInfo mhc_gemm = extension("mHC", "", "mHC", Maf::kMatrix);
    add("pseudo_op::moe_aiter_fused_1stage", with(moe_fused, MC::kMoeFused1Stage));
    add("aiter::moe_cktile2stages_gemm1_ck", with(moe_unfused, MC::kMoeCktileUp));
    add("aiter::moe_cktile2stages_gemm2_ck", with(moe_unfused, MC::kMoeCktileDown));
    add("aiter::ck_moe_stage1", with(moe_unfused, MC::kMoeCkStage1));
    add("aiter::ck_moe_stage2", with(moe_unfused, MC::kMoeCkStage2));
    add("aiter::fmoe_fp8_blockscale_g1u1", with(moe_fused, MC::kMoeFusedBlockscale));
    add("aiter::fmoe_g1u1", with(moe_fused, MC::kMoeFusedBlockscale));
    add("pseudo_op::moe_triton_unfused_up", with(moe_unfused, MC::kMoeTritonUnfusedUp));
    add("pseudo_op::moe_triton_unfused_down", with(moe_unfused, MC::kMoeTritonUnfusedDown));
    add("pseudo_op::moe_gptq_awq_up", with(moe_unfused, MC::kMoeGptqAwqUp));
    add("pseudo_op::moe_gptq_awq_down", with(moe_unfused, MC::kMoeGptqAwqDown));
    add("pseudo_op::moe_flydsl_stage1", with(moe_unfused, MC::kMoeFlydslStage1));
    add("pseudo_op::moe_flydsl_stage2", with(moe_unfused, MC::kMoeFlydslStage2));
    add("sglang_profiler::fused_moe_triton_kernels_invoke_fused_moe_kernel",
        with(moe_unfused, MC::kMoeTritonGroupedGemm));
    add("aiter::biased_grouped_topk_hip", with(moe_aux, MC::kBiasedGroupedTopk));
    add("aiter::moe_sorting_fwd", with(moe_aux, MC::kMoeSortScatterGather));
    add("aiter::mxfp4_moe_sort_hip", with(moe_aux, MC::kMoeSortScatterGather));
    // Each attention class with its argument layout (inference_attention.cpp).
    for (const auto& [n, model_class] : std::initializer_list<std::pair<const char*, ModelClass>>{
             {"vllm::unified_attention_with_output", MC::kInferenceAttention},
             {"aiter::mha_varlen_fwd", MC::kInferenceAttention},
             {"aiter::fmha_v3_varlen_fwd", MC::kInferenceAttentionVHead},
             {"aiter::mha_batch_prefill", MC::kInferenceAttentionVHead},
             {"sglang_profiler::attention_paged_attention_ragged", MC::kPagedAttentionRagged},
             {"pseudo_mla_decode_fwd", MC::kInferenceAttention},
             {"pseudo_mla_prefill_fwd", MC::kInferenceAttentionVHead},
             {"aiter::pa_decode_gluon", MC::kPagedDecodeGluon},
             {"pseudo_v4_paged_decode_swa", MC::kV4PagedDecodeSwa},
             {"pseudo_v4_paged_decode_csa", MC::kV4PagedDecodeCsa},
             {"pseudo_v4_paged_decode_hca", MC::kV4PagedDecodeHca},
             {"aiter::pa_sparse_prefill_opus_fwd", MC::kSparsePagedPrefill},
             {"sglang_profiler::tilelang_kernel_tilelang_sparse_fwd", MC::kMlaTilelangSparse},
             {"vllm::gdn_attention_core", MC::kGatedDeltaNet},
             {"aiter::linear_attention_with_output_base", MC::kGatedDeltaNet},
             {"sglang::store_cache", MC::kStoreCache}}) {
      ModelInfo info = with(inference, model_class);
      if (model_class == MC::kStoreCache) info.maf = Maf::kVector;  // a copy, no math
      add(n, info);
    }
    add("aiter::fused_qk_rope_cat_and_cache_mla", with(fused_rope, MC::kRopeCatAndCacheMla));
    // Serving-engine GEMMs: each name with the argument layout of its kernel.
    const auto gemm_as = [&](std::string_view n, ModelClass model_class) {
      add(n, with(kGemm, model_class));
    };
    gemm_as("aiter::batched_gemm_a16wfp4_", MC::kAiterBatchedGemmA16Wfp4);
    for (const char* n :
         {"sglang_profiler::fp8_utils_gemm_a8w8_blockscale",
          "sglang_profiler::gemm_a8w8_blockscale_gemm_a8w8_blockscale",
          "vllm::rocm_aiter_triton_gemm_a8w8_blockscale", "aiter::gemm_a8w8_blockscale_ck",
          "aiter::gemm_a8w8_blockscale_cktile", "aiter::gemm_a8w8_blockscale_bpreshuffle_ck",
          "aiter::gemm_a8w8_blockscale_bpreshuffle_cktile", "aiter::flatmm_a8w8_blockscale_asm",
          "aiter::gfx950_a8w8_blockscale_asm", "aiter::gemm_a8w8_ck",
          "aiter::gemm_a8w8_bpreshuffle_ck", "aiter::gemm_a8w8_bpreshuffle",
          "vllm::_rocm_aiter_preshuffled_per_token_w8a8_gemm"}) {
      gemm_as(n, MC::kAiterGemmA8W8Blockscale);
    }
    gemm_as("vllm::rocm_unquantized_gemm", MC::kVllmUnquantizedGemm);
    gemm_as("aiter::gemm_a16w16", MC::kAiterGemmA16W16);
    gemm_as("aiter::gemm_a16w16_atomic_", MC::kAiterGemmA16W16Atomic);
    gemm_as("aiter::_gemm_a16w16_asm", MC::kAiterGemmA16W16Asm);
    gemm_as("sglang_profiler::gemm_kernels_flydsl_hgemm", MC::kAiterGemmA16W16Atomic);
    gemm_as("aiter::gemm_afp4wfp4_", MC::kAiterGemmAfp4Wfp4);
    gemm_as(
        "sglang_profiler::batched_gemm_a8w8_a_per_token_group_prequant_w_per_batched_tensor_"
        "quant_batched_gemm_a8w8_a_per_token_group_prequant_w_per_batched_tensor_quant",
        MC::kAiterBatchedGemmA8W8);
    gemm_as("aiter::_gemm_a8w8_blockscale_bpreshuffle_asm", MC::kAiterGemmA8W8Blockscale);
    add("aiter::mhc_pre_gemm_sqrsum", with(mhc_gemm, MC::kMhcPreGemmSqrsum));
    add("aiter::mhc_fused_post_pre_gemm_sqrsum", with(mhc_gemm, MC::kMhcFusedPostPreGemm));
    // TraceLens's GroupQuant classes derive from BinaryElementwise and inherit its sheet; the
    // MXFP4 quantizers derive from UnaryElementwise and name the GroupQuant sheet themselves.
    const ModelInfo group_quant = extension("GroupQuant", "", "BinaryElementwise", Maf::kVector);
    for (const auto& [n, model_class] : std::initializer_list<std::pair<const char*, ModelClass>>{
             {"aiter::dynamic_per_token_scaled_quant", MC::kPerGroupQuant},
             {"aiter::dynamic_per_group_scaled_quant", MC::kPerGroupQuant},
             {"vllm::triton_per_token_group_quant_fp8", MC::kVllmTritonGroupQuantFp8},
             {"sglang_profiler::fused_mxfp4_quant_fused_flatten_mxfp4_quant",
              MC::kMxfp4QuantFlatten},
             {"aiter::dynamic_per_tensor_quant", MC::kPerGroupQuant},
             {"sglang_profiler::quant_dynamic_mxfp4_quant", MC::kMxfp4QuantX0},
             {"aiter::dynamic_per_group_scaled_quant_fp4", MC::kMxfp4QuantX1},
             {"aiter::fused_dynamic_mx_quant_moe_sort_hip", MC::kMxfp4QuantMoeSort},
             {"aiter::fused_dynamic_mxfp4_quant_moe_sort_hip", MC::kMxfp4QuantX2}}) {
      const bool binary =
          model_class == MC::kPerGroupQuant || model_class == MC::kVllmTritonGroupQuantFp8;
      add(n, with(binary ? group_quant : quant, model_class));
    }
    // A class of its own with category "elementwise" and no sheet of its own.
    add("aiter::mixed_sample_outer_exponential",
        with(extension("elementwise", "", "elementwise", Maf::kVector), MC::kMixedSample));
    add("aiter::fused_qk_rope_concat_and_cache_mla", with(fused_rope, MC::kRopeConcatAndCacheMla));
    add("aiter::rope_cached_positions_2c_fwd_impl", with(rope, MC::kRopeCachedPositions2c));
    add("sgl_kernel::rotary_embedding", with(rope, MC::kRotaryEmbeddingSgl));
    for (const char* n : {"aiter::silu_and_mul", "_C::silu_and_mul", "sgl_kernel::silu_and_mul"}) {
      add(n, with(kUnary, MC::kGatedSilu));
    }
    add("aiter::gelu_and_mul", with(kUnary, MC::kGatedGelu));
    add("aiter::gelu_tanh_and_mul", with(kUnary, MC::kGatedGeluTanh));
    // Serving-engine RMSNorms: each name with its kernel's layout (TraceLens's order).
    for (const auto& [n, model_class] : std::initializer_list<std::pair<const char*, ModelClass>>{
             {"aiter::fused_add_rmsnorm_pad_", MC::kRmsNormAddPad},
             {"aiter::rms_norm", MC::kRmsNormAiterX0},
             {"aiter::rmsnorm", MC::kRmsNormAiterX1},
             {"aiter::rmsnorm2d_fwd_ck", MC::kRmsNormAiterX0},
             {"aiter::rmsnorm2d_fwd_with_add_ck", MC::kRmsNormAddCk},
             {"aiter::add_rmsnorm", MC::kRmsNormAddCk},
             {"aiter::rmsnorm2d_fwd_with_dynamicquant_ck", MC::kRmsNormDynamicQuant},
             {"vllm::rocm_aiter_rmsnorm_fp8_group_quant", MC::kRmsNormFp8GroupQuant},
             {"vllm::rocm_aiter_rmsnorm_with_add_fp8_group_quant", MC::kRmsNormAddFp8GroupQuant},
             {"vllm::rocm_aiter_triton_add_rmsnorm_pad", MC::kRmsNormAddPad},
             {"sglang_profiler::fused_mxfp4_quant_fused_rms_mxfp4_quant", MC::kRmsNormMxfp4Quant},
             {"aiter::_fuse_rmsnorm_fp4_quant", MC::kRmsNormMxfp4Quant},
             {"aiter::rmsnorm_quant", MC::kRmsNormGroupQuant}}) {
      add(n, with(rmsnorm, model_class));
    }
    add("aiter::mhc_pre_big_fuse_rmsnorm", with(mhc, MC::kMhcPreBigFuseRmsnorm));
    for (const auto& [n, model_class] : std::initializer_list<std::pair<const char*, ModelClass>>{
             {"aiter::fused_allreduce_rmsnorm", MC::kAllReduceRmsnorm},
             {"aiter::fused_allreduce_rmsnorm_", MC::kAllReduceRmsnormPy},
             {"_C_custom_ar::all_reduce", MC::kCustomAllReduce},
             {"aiter::reduce_scatter", MC::kCustomShardCollective},
             {"aiter::all_gather_reg", MC::kCustomShardCollective},
             {"sgl_kernel::all_reduce_reg", MC::kCustomAllReduce},
             {"sgl_kernel::qr_all_reduce", MC::kCustomAllReduce},
             {"sglang::reg_all_gather_into_tensor", MC::kRegAllGatherIntoTensor},
             {"_C_custom_ar::qr_all_reduce", MC::kCustomAllReduce}}) {
      add(n, with(collective, model_class));
    }
    add("sglang_profiler::fused_moe_triton_kernels_fused_append_shared_experts",
        with(moe_aux, MC::kAppendSharedExperts));
    add("aiter::mhc_post", with(mhc, MC::kMhcPost));
    add("aiter::topk_softplus", with(moe_aux, MC::kTopkSoftplus));
    // aiter's GroupNorm: aten::group_norm's model on the same args layout (last pseudo op).
    add("aiter::_groupnorm_run", with(kNorm, MC::kGroupNorm));
    // aten elementwise.
    for (const char* n : {"aten::copy", "aten::copy_", "aten::clamp_min", "aten::clamp_min_",
                          "aten::clamp_max", "aten::clamp_max_", "aten::sigmoid", "aten::rsqrt",
                          "aten::silu", "aten::neg", "aten::pow"}) {
      add(n, kUnary);
    }
    for (const char* n :
         {"aten::replication_pad1d", "aten::replication_pad2d", "aten::replication_pad3d"}) {
      add(n, with(kUnary, MC::kReplicationPad));
    }
    for (const char* n :
         {"aten::upsample_nearest1d", "aten::upsample_nearest2d", "aten::upsample_nearest3d"}) {
      add(n, with(kUnary, MC::kUpsampleNearest));
    }
    for (const char* n : {"aten::div", "aten::div_", "aten::mul", "aten::mul_", "aten::add",
                          "aten::add_", "aten::sigmoid_backward", "aten::threshold_backward"}) {
      add(n, kBinary);
    }
    // Normalization: every {,native_,miopen_,cudnn_} variant.
    static const std::vector<std::string> norm_names = [] {
      std::vector<std::string> out;
      for (const char* stem : {"batch_norm", "layer_norm", "group_norm", "instance_norm"}) {
        for (const char* prefix : {"", "native_", "miopen_", "cudnn_"}) {
          out.push_back(std::string("aten::").append(prefix).append(stem));
        }
      }
      out.emplace_back("aten::_fused_rms_norm");
      for (const char* stem : {"batch_norm_backward", "layer_norm_backward", "group_norm_backward",
                               "instance_norm_backward", "rms_norm_backward"}) {
        for (const char* prefix : {"", "native_", "miopen_", "cudnn_"}) {
          out.push_back(std::string("aten::").append(prefix).append(stem));
        }
      }
      out.emplace_back("aten::_fused_rms_norm_backward");
      return out;
    }();
    const auto norm_class = [](std::string_view name) {
      const bool bwd = name.ends_with("_backward");
      if (name.find("batch_norm") != std::string_view::npos) {
        return bwd ? MC::kBatchNormBwd : MC::kBatchNorm;
      }
      if (name.find("layer_norm") != std::string_view::npos) {
        return bwd ? MC::kLayerNormBwd : MC::kLayerNorm;
      }
      if (name.find("group_norm") != std::string_view::npos) {
        return bwd ? MC::kGroupNormBwd : MC::kGroupNorm;
      }
      if (name.find("instance_norm") != std::string_view::npos) {
        return bwd ? MC::kInstanceNormBwd : MC::kInstanceNorm;
      }
      return bwd ? MC::kRmsNormBwd : MC::kRmsNorm;
    };
    for (const auto& n : norm_names) {
      const bool bwd = n.ends_with("_backward");
      add(n, with(bwd ? kNormBwd : kNorm, norm_class(n)));
    }
    add("primus::fused_ln_modulate", with(kNorm, MC::kFusedLnModulate));
    add("primus::fused_ln_modulate_backward", with(kNormBwd, MC::kFusedLnModulateBwd));
    // Reductions.
    for (const char* n : {"aten::sum", "aten::mean", "aten::max", "aten::min", "aten::norm",
                          "aten::linalg_norm", "aten::std", "aten::var", "aten::logsumexp",
                          "aten::cumsum", "aten::cumprod", "aten::amin", "aten::amax"}) {
      add(n, kReduce);
    }
    return r;
  }();
  return rows;
}

const std::unordered_map<std::string_view, const ModelInfo*>& model_index() {
  static const std::unordered_map<std::string_view, const ModelInfo*> index = [] {
    std::unordered_map<std::string_view, const ModelInfo*> out;
    for (const auto& row : model_rows()) out.insert_or_assign(row.name, &row.info);
    return out;
  }();
  return index;
}

// CATEGORY_ONLY_OP_MAPPING (+ the pseudo-op category-only names).
const std::unordered_map<std::string_view, std::string_view>& category_only_index() {
  static const std::unordered_map<std::string_view, std::string_view> index = {
      {"aten::miopen_convolution", "CONV_fwd"},
      {"aten::cudnn_convolution", "CONV_fwd"},
      {"FlashAttnFuncBackward", "SDPA_bwd"},
      {"FusedAttnFuncBackward", "SDPA_bwd"},
      {"aten::_scaled_dot_product_cudnn_attention_backward", "SDPA_bwd"},
      {"aten::_scaled_dot_product_efficient_attention_backward", "SDPA_bwd"},
      {"aten::_scaled_dot_product_flash_attention_backward", "SDPA_bwd"},
      {"aten::_efficient_attention_forward", "SDPA_fwd"},
      {"aten::_efficient_attention_backward", "SDPA_bwd"},
      {"MambaSplitConv1dScanCombinedFnBackward", "SSM_bwd"},
      {"DaoAILab::_causal_conv1d_bwd_cpp", "SSM_bwd"},
      {"TokenPermuteMaskMap", "MoE_comm_fwd"},
      {"_OperationFuserAutogradFunction", "MoE_comm_fwd"},
      {"MoEDispatchBackward", "MoE_comm_bwd"},
      {"MoECombineBackward", "MoE_comm_bwd"},
      {"TokenPermuteMaskMapBackward", "MoE_comm_bwd"},
      {"_OperationFuserAutogradFunctionBackward", "MoE_comm_bwd"},
      {"FusedRoPEFuncBackward", "RoPE_bwd"},
      {"CrossEntropyFunctionBackward", "CrossEntropy_bwd"},
      {"aiter::moe_sorting_opus_fwd", "MoE_aux"},
      {"aiter::moe_align_block_size", "MoE_aux"},
      {"_moe_C::moe_align_block_size", "MoE_aux"},
      {"aiter::moe_sum", "MoE_aux"},
      {"aiter::topk_softmax", "MoE_aux"},
      {"aiter::topk_softmax_asm", "MoE_aux"},
      {"aiter::topk_sigmoid", "MoE_aux"},
      {"aiter::grouped_topk", "MoE_aux"},
      {"aiter::moe_fused_gate", "MoE_aux"},
      {"_C_cache_ops::reshape_and_cache_flash", "InferenceAttention"},
      {"_C_cache_ops::concat_and_cache_mla", "InferenceAttention"},
      {"aiter::get_mla_metadata_v1", "InferenceAttention"},
      {"vllm::rocm_aiter_sparse_attn_indexer", "InferenceAttention"},
      {"aiter::indexer_score_topk", "InferenceAttention"},
      {"aiter::fused_dynamic_mxfp4_quant_moe_sort_hip", "MoE_aux"},
      // Kernels TraceLens's tree turns into synthetic ops, by their full names.
      {"aiter::fused_moe_->_fused_dynamic_mxfp4_quant_moe_sort_kernel (Synthetic Op)", "MoE_aux"},
      {"aiter::unified_attention_with_output_base->_fused_qk_rope_reshape_and_cache_kernel "
       "(Synthetic Op)",
       "FusedRoPE"},
      {"hipModuleLaunchKernel->kv_indices_generate_kernel (Synthetic Op)", "InferenceAttention"},
      {"aiter::v4_attention_with_output->_inverse_rope_gptj_kernel (Synthetic Op)", "FusedRoPE"},
      {"aiter::v4_attention_with_output->_update_compressor_states_kernel (Synthetic Op)",
       "InferenceAttention"},
      {"aiter::v4_attention_with_output->_swa_write_kernel (Synthetic Op)", "InferenceAttention"},
      {"aiter::v4_attention_with_output->qk_norm_rope_H32_D512_RD64_flydsl (Synthetic Op)",
       "FusedRoPE"},
      {"aiter::v4_attention_with_output->qk_norm_rope_H64_D512_RD64_flydsl (Synthetic Op)",
       "FusedRoPE"},
      {"aiter::v4_attention_with_output->hca_norm_rope_scatter_D512_RD64_R128_KB1_rmsbf16_flydsl "
       "(Synthetic Op)",
       "FusedRoPE"},
      {"aiter::v4_attention_with_output->fused_compress_attn_D512_RD64_R4_OVL_SS8_KB32_rmsbf16_pf_"
       "flydsl (Synthetic Op)",
       "InferenceAttention"},
      {"aiter::v4_attention_with_output->fused_compress_attn_D128_RD64_R4_OVL_SS8_KB32_Q_ue8m0_psh_"
       "rmsbf16_pf_flydsl (Synthetic Op)",
       "InferenceAttention"},
      {"aiter::v4_attention_with_output->hca_compress_forward_D512_R128_NW4_SL256_S128_flydsl "
       "(Synthetic Op)",
       "InferenceAttention"},
      {"aiter::v4_attention_with_output->hca_compress_forward_D512_R128_NW8_SL128_S128_flydsl "
       "(Synthetic Op)",
       "InferenceAttention"},
      {"aiter::allgather_lastdim<std::bfloat16_t, 2>(aiter::RankData*, aiter::RankSignals, "
       "aiter::Signal*, std::bfloat16_t*, int, int, int) (Synthetic Op)",
       "CustomCollective"},
      {"aiter::allgather_lastdim<std::bfloat16_t, 4>(aiter::RankData*, aiter::RankSignals, "
       "aiter::Signal*, std::bfloat16_t*, int, int, int) (Synthetic Op)",
       "CustomCollective"},
  };
  return index;
}

// The registered name matchers, tried after the exact names: TritonCompiledPerfModel for
// inductor kernels-as-ops. The class declares no category (the categorizer's "triton" prefix
// rule names it) and has no report sheet.
const ModelInfo* match_model(std::string_view op_name) {
  static constexpr ModelInfo kTriton{MC::kTritonCompiled, "triton", "", "", Maf::kVector, false};
  for (const std::string_view prefix : {"triton_poi_", "triton_red_", "triton_per_"}) {
    if (op_name.starts_with(prefix)) return &kTriton;
  }
  return nullptr;
}

}  // namespace

const ModelInfo* find_model(std::string_view op_name) {
  const auto& index = model_index();
  const auto it = index.find(op_name);
  return it == index.end() ? match_model(op_name) : it->second;
}

bool has_model(std::string_view op_name) { return find_model(op_name) != nullptr; }

std::optional<std::string_view> forward_op_name(std::string_view backward_op_name) {
  // The fused ConvBias ops record no shapes on their backward op; its model reads the forward
  // op's (docs/deviations.md, "ConvBias backward").
  if (backward_op_name == "ConvBias_Backward") return "ConvBias_";
  if (backward_op_name == "ConvBiasReLU_Backward") return "ConvBiasReLU_";
  return std::nullopt;
}

std::optional<std::string_view> category_only(std::string_view op_name) {
  const auto& index = category_only_index();
  const auto it = index.find(op_name);
  if (it == index.end()) return std::nullopt;
  return it->second;
}

const std::vector<std::pair<std::string_view, std::vector<std::string_view>>>& sheet_families() {
  static const auto families = [] {
    std::vector<std::pair<std::string_view, std::vector<std::string_view>>> out;
    for (const auto& row : model_rows()) {
      if (model_index().at(row.name) != &row.info) continue;  // overridden later in the map
      auto it = std::find_if(out.begin(), out.end(),
                             [&](const auto& f) { return f.first == row.info.sheet_family; });
      if (it == out.end()) {
        out.emplace_back(row.info.sheet_family, std::vector<std::string_view>{});
        it = std::prev(out.end());
      }
      it->second.push_back(row.name);
    }
    return out;
  }();
  return families;
}

}  // namespace loupe::core::prepare::perf
