// Exact op-name families with a perf model (trace_model.md §3.9.2). Inductor ops
// (triton_poi_/triton_red_/triton_per_) are not treated as modeled: their can_model check
// needs kernel metadata these traces do not carry.
#include "perf_model_names.hpp"

#include <string>
#include <unordered_map>
#include <vector>

namespace loupe::core::prepare::fusion {
namespace {

enum Family : unsigned char { kNoBackward, kWithBackward };

const std::unordered_map<std::string_view, Family>& table() {
  static const std::unordered_map<std::string_view, Family> names = [] {
    std::unordered_map<std::string_view, Family> t;
    for (const char* n :
         {"aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm", "aten::_scaled_mm",
          "trtllm::cublas_scaled_mm", "bitsandbytes::int8_linear_matmul", "tex_ts::te_gemm_ts",
          "vllm::gemm_with_dynamic_quant", "vllm::rocm_unquantized_gemm"}) {
      t.emplace(n, kNoBackward);
    }
    for (const char* n : {"aten::convolution", "ConvBias_", "ConvBiasReLU_"}) {
      t.emplace(n, kWithBackward);
    }
    for (const char* n :
         {"aten::convolution_backward", "ConvBias_Backward", "ConvBiasReLU_Backward"}) {
      t.emplace(n, kNoBackward);
    }
    for (const char* n :
         {"aten::_scaled_dot_product_flash_attention",
          "aten::_scaled_dot_product_efficient_attention",
          "aten::_scaled_dot_product_cudnn_attention", "flash_attn::_flash_attn_forward",
          "flash_attn::_flash_attn_varlen_forward", "FlashAttnFunc", "flash_attn_3::fwd"}) {
      t.emplace(n, kWithBackward);
    }
    for (const char* n :
         {"flash_attn::_flash_attn_backward", "flash_attn::_flash_attn_varlen_backward"}) {
      t.emplace(n, kNoBackward);
    }
    for (const char* n : {"aten::copy",
                          "aten::copy_",
                          "aten::clamp_min",
                          "aten::clamp_min_",
                          "aten::clamp_max",
                          "aten::clamp_max_",
                          "aten::sigmoid",
                          "aten::rsqrt",
                          "aten::silu",
                          "aten::neg",
                          "aten::pow",
                          "aten::replication_pad1d",
                          "aten::replication_pad2d",
                          "aten::replication_pad3d",
                          "aten::upsample_nearest1d",
                          "aten::upsample_nearest2d",
                          "aten::upsample_nearest3d",
                          "aiter::silu_and_mul",
                          "_C::silu_and_mul",
                          "aiter::gelu_and_mul",
                          "aten::add",
                          "aten::add_",
                          "aten::mul",
                          "aten::mul_",
                          "aten::div",
                          "aten::div_",
                          "aten::sigmoid_backward",
                          "aten::threshold_backward",
                          "LigerSiLUMulFunction"}) {
      t.emplace(n, kNoBackward);
    }
    for (const char* n : {"aten::sum", "aten::mean", "aten::max", "aten::min", "aten::norm",
                          "aten::linalg_norm", "aten::std", "aten::var", "aten::logsumexp",
                          "aten::cumsum", "aten::cumprod", "aten::amin", "aten::amax"}) {
      t.emplace(n, kWithBackward);
    }
    static const std::vector<std::string> norms = [] {
      std::vector<std::string> out;
      for (const char* prefix : {"", "native_", "miopen_", "cudnn_"}) {
        for (const char* kind : {"batch_norm", "layer_norm", "group_norm", "instance_norm"}) {
          out.push_back(std::string("aten::") + prefix + kind);
          out.push_back(std::string("aten::") + prefix + kind + "_backward");
        }
      }
      out.emplace_back("aten::_fused_rms_norm");
      out.emplace_back("aten::_fused_rms_norm_backward");
      out.emplace_back("aten::rms_norm_backward");
      return out;
    }();
    for (const auto& n : norms) {
      t.emplace(n, n.ends_with("_backward") ? kNoBackward : kWithBackward);
    }
    return t;
  }();
  return names;
}

}  // namespace

PerfModelInfo perf_model_info(std::string_view op_name) {
  const auto& t = table();
  if (const auto it = t.find(op_name); it != t.end()) {
    return {true, it->second == kWithBackward};
  }
  if (op_name.starts_with("aiter::gemm_")) return {true, false};
  return {};
}

}  // namespace loupe::core::prepare::fusion
