// Model dispatch: op name -> registry class -> family model, errors mapped to ModelError.
#include "model_support.hpp"

namespace loupe::core::prepare::perf {
namespace {

using detail::FamilyOutput;

FamilyOutput run_family(const ModelInfo& info, std::string_view name, const OpArgs& args,
                        Direction direction) {
  switch (info.model_class) {
    case ModelClass::kAtenMm:
    case ModelClass::kAtenAddmm:
    case ModelClass::kAtenBmm:
    case ModelClass::kAtenBaddbmm:
    case ModelClass::kAtenScaledMm:
    case ModelClass::kVllmUnquantizedGemm:
      return detail::gemm_model(info.model_class, name, args, direction);
    case ModelClass::kTeGemmTs:
    case ModelClass::kTePseudoGemm:
    case ModelClass::kVllmGemmDynamicQuant:
    case ModelClass::kHipblasltGemmFp8:
    case ModelClass::kHipblasltGemmFp4:
    case ModelClass::kAiterGemmA4W4:
      return detail::gemm_library_model(info.model_class, name, args, direction);
    case ModelClass::kAiterGemmA8W8Blockscale:
    case ModelClass::kAiterGemmA16W16:
    case ModelClass::kAiterGemmA16W16Atomic:
    case ModelClass::kAiterGemmA16W16Asm:
    case ModelClass::kAiterGemmAfp4Wfp4:
    case ModelClass::kAiterBatchedGemmA16Wfp4:
    case ModelClass::kAiterBatchedGemmA8W8:
      return detail::gemm_extension_model(info.model_class, name, args, direction);
    case ModelClass::kGatedSilu:
    case ModelClass::kGatedGelu:
    case ModelClass::kGatedGeluTanh:
      return detail::gated_activation_model(info.model_class, name, args, direction);
    case ModelClass::kRmsNormAiterX0:
    case ModelClass::kRmsNormAiterX1:
    case ModelClass::kRmsNormDynamicQuant:
    case ModelClass::kRmsNormGroupQuant:
    case ModelClass::kRmsNormAddCk:
    case ModelClass::kRmsNormFp8GroupQuant:
    case ModelClass::kRmsNormAddFp8GroupQuant:
    case ModelClass::kRmsNormAddPad:
    case ModelClass::kRmsNormMxfp4Quant:
      return detail::rmsnorm_extension_model(info.model_class, name, args, direction);
    case ModelClass::kAtenConv:
    case ModelClass::kAtenConvBwd:
    case ModelClass::kConvBias:
    case ModelClass::kConvBiasBwd:
      return detail::conv_model(info.model_class, name, args, direction);
    case ModelClass::kSdpaFlash:
    case ModelClass::kSdpaEfficient:
    case ModelClass::kSdpaCudnn:
    case ModelClass::kFlashAttn:
    case ModelClass::kAiterFlashAttn:
      return detail::sdpa_model(info.model_class, name, args, direction);
    case ModelClass::kFlashAttnBwd:
    case ModelClass::kFlashAttnVarlen:
    case ModelClass::kFlashAttnVarlenBwd:
    case ModelClass::kFlashAttnV3:
    case ModelClass::kAiterFlashAttnBwd:
    case ModelClass::kAiterFmhaV3Wrapper:
    case ModelClass::kAiterFmhaV3WrapperBwd:
    case ModelClass::kAiterMhaBwd:
    case ModelClass::kEvoformer:
      return detail::flash_attention_model(info.model_class, name, args, direction);
    case ModelClass::kInferenceAttention:
    case ModelClass::kInferenceAttentionVHead:
    case ModelClass::kPagedAttentionRagged:
    case ModelClass::kPagedDecodeGluon:
    case ModelClass::kMlaTilelangSparse:
    case ModelClass::kSparsePagedPrefill:
    case ModelClass::kGatedDeltaNet:
    case ModelClass::kV4PagedDecodeSwa:
    case ModelClass::kV4PagedDecodeCsa:
    case ModelClass::kV4PagedDecodeHca:
      return detail::inference_attention_model(info.model_class, name, args, direction);
    case ModelClass::kUnaryElementwise:
    case ModelClass::kReplicationPad:
    case ModelClass::kUpsampleNearest:
    case ModelClass::kBinaryElementwise:
    case ModelClass::kLigerSiLUMul:
      return detail::elementwise_model(info.model_class, name, args, direction);
    case ModelClass::kRopeCachedPositions2c:
    case ModelClass::kRotaryEmbeddingSgl:
    case ModelClass::kRopeCatAndCacheMla:
    case ModelClass::kRopeConcatAndCacheMla:
      return detail::rope_model(info.model_class, name, args, direction);
    case ModelClass::kStoreCache:
    case ModelClass::kMixedSample:
      return detail::serving_memory_model(info.model_class, name, args, direction);
    case ModelClass::kPerGroupQuant:
    case ModelClass::kVllmTritonGroupQuantFp8:
    case ModelClass::kMxfp4QuantFlatten:
    case ModelClass::kMxfp4QuantX0:
    case ModelClass::kMxfp4QuantX1:
    case ModelClass::kMxfp4QuantX2:
    case ModelClass::kMxfp4QuantMoeSort:
      return detail::group_quant_model(info.model_class, name, args, direction);
    case ModelClass::kReduce:
      return detail::reduce_model(info.model_class, name, args, direction);
    case ModelClass::kBatchNorm:
    case ModelClass::kBatchNormBwd:
    case ModelClass::kLayerNorm:
    case ModelClass::kLayerNormBwd:
    case ModelClass::kGroupNorm:
    case ModelClass::kGroupNormBwd:
    case ModelClass::kInstanceNorm:
    case ModelClass::kInstanceNormBwd:
    case ModelClass::kRmsNorm:
    case ModelClass::kRmsNormBwd:
      return detail::norm_model(info.model_class, name, args, direction);
    case ModelClass::kMoeFused1Stage:
    case ModelClass::kMoeFusedBlockscale:
    case ModelClass::kMoeCktileUp:
    case ModelClass::kMoeCktileDown:
    case ModelClass::kMoeCkStage1:
    case ModelClass::kMoeCkStage2:
    case ModelClass::kMoeTritonGroupedGemm:
    case ModelClass::kMoeFlydslStage1:
    case ModelClass::kMoeFlydslStage2:
    case ModelClass::kMoeTritonUnfusedUp:
    case ModelClass::kMoeTritonUnfusedDown:
    case ModelClass::kMoeGptqAwqUp:
    case ModelClass::kMoeGptqAwqDown:
      return detail::moe_stage_model(info.model_class, name, args, direction);
    case ModelClass::kCustomAllReduce:
    case ModelClass::kCustomShardCollective:
    case ModelClass::kRegAllGatherIntoTensor:
    case ModelClass::kAllReduceRmsnorm:
    case ModelClass::kAllReduceRmsnormPy:
      return detail::custom_collective_model(info.model_class, name, args, direction);
    case ModelClass::kMoeSortScatterGather:
    case ModelClass::kBiasedGroupedTopk:
    case ModelClass::kAppendSharedExperts:
      return detail::moe_aux_model(info.model_class, name, args, direction);
    case ModelClass::kTopkSoftplus:
    case ModelClass::kMhcPost:
    case ModelClass::kMhcPreGemmSqrsum:
    case ModelClass::kMhcPreBigFuseRmsnorm:
    case ModelClass::kMhcFusedPostPreGemm:
      return detail::mhc_model(info.model_class, name, args, direction);
    case ModelClass::kPrimusQuantizeFp8:
    case ModelClass::kPrimusQuantizeMxfp4Dual:
    case ModelClass::kFusedLnModulate:
    case ModelClass::kFusedLnModulateBwd:
      return detail::primus_model(info.model_class, name, args, direction);
    case ModelClass::kGroupedGemm:
    case ModelClass::kGroupedGemmVariableK:
      return detail::grouped_gemm_model(info.model_class, name, args, direction);
    case ModelClass::kMoeComm:
    case ModelClass::kCausalConv1d:
    case ModelClass::kFusedRopeFunc:
    case ModelClass::kCrossEntropy:
    case ModelClass::kMambaSsd:
      return detail::training_op_model(info.model_class, name, args, direction);
    case ModelClass::kTritonCompiled:
      return detail::triton_model(info.model_class, name, args, direction);
    default:
      throw detail::ModelException{ModelError::kUnsupported,
                                   std::string("Loupe has no formula for ").append(name)};
  }
}

}  // namespace

bool can_model(std::string_view op_name, const OpArgs& args) {
  const ModelInfo* info = find_model(op_name);
  if (info == nullptr) return false;
  if (info->model_class == ModelClass::kTritonCompiled) {
    return detail::triton_meta_available(op_name, args);
  }
  return true;
}

ModelResult evaluate(std::string_view op_name, const OpArgs& args, Direction direction) {
  ModelResult result;
  const ModelInfo* info = find_model(op_name);
  if (info == nullptr) {
    result.error = ModelError::kUnsupported;
    result.message = std::string("no perf model for ").append(op_name);
    return result;
  }
  try {
    FamilyOutput out = run_family(*info, op_name, args, direction);
    result.params = std::move(out.params);
    result.flops = out.flops;
    result.bytes = out.bytes;
    const std::string_view maf = info->maf == Maf::kMatrix ? "matrix_" : "vector_";
    if (out.precision) {
      result.compute_spec = std::string(maf).append(*out.precision);
    } else if (out.has_precision_dtype) {
      const std::string precision = compute_precision(out.precision_dtype);
      if (!precision.empty()) {
        result.compute_spec = std::string(maf).append(precision);
      }
    }
  } catch (const detail::ModelException& e) {
    result = ModelResult{};
    result.error = e.kind;
    result.message = e.message;
  }
  return result;
}

std::string params_repr(const Params& params) {
  compute::PyValue::Dict dict;
  dict.reserve(params.size());
  for (const auto& [key, value] : params) dict.emplace_back(compute::PyValue(key), value);
  return compute::PyValue(std::move(dict)).repr();
}

}  // namespace loupe::core::prepare::perf
