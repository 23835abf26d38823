// The SDPA analyzer's pure parts: implementation detection, the kernel-breakdown reading in both
// modes, perf_params parsing, the expected-efficiency bands and the head-dim padding rule.
#include <catch2/catch.hpp>
#include <string>

#include "loupe/compute/findings_builder.hpp"
#include "sdpa_attention_facts.hpp"
#include "sdpa_detection.hpp"
#include "sdpa_kernel_breakdown.hpp"
#include "sdpa_prose.hpp"
#include "sdpa_workload.hpp"

using namespace loupe::sdpa;
using loupe::Json;

TEST_CASE("sdpa: flash / paged / standard detection") {
  CHECK(attention_type("aten::_scaled_dot_product_flash_attention", "") == AttentionType::Flash);
  CHECK(attention_type("aiter::_flash_attn_forward", "") == AttentionType::Flash);
  CHECK(attention_type("vllm::unified_attention_with_output", "") == AttentionType::Paged);
  CHECK(attention_type("my::attention", "[{'name': 'kernel_paged_attention_2d'}]") ==
        AttentionType::Paged);
  CHECK(attention_type("aten::_scaled_dot_product_efficient_attention", "nan") ==
        AttentionType::Standard);
  CHECK(std::string(attention_type_name(AttentionType::Standard)) == "standard");
}

TEST_CASE("sdpa: kernel breakdown, TraceLens reading (means, ')' removed) and corrected") {
  const std::string details =
      "[{'name': 'void vllm::reshape_and_cache_flash_kernel<(vllm::Fp8KVCacheDataType)1>(int)', "
      "'stream': 7, 'count': 36, 'total_duration_us': 162.686, 'mean_duration_us': "
      "4.519055555555555}, {'name': 'fmhaSm100aKernel_Paged', 'stream': 7, 'count': "
      "36, 'total_duration_us': 485.821, 'mean_duration_us': 13.495027777777777}]";
  const KernelBreakdown tl = parse_kernel_breakdown(details, true);
  REQUIRE(tl.kernels.size() == 2);
  CHECK(tl.kernels[0].name ==
        "void vllm::reshape_and_cache_flash_kernel<(vllm::Fp8KVCacheDataType1>(int");
  CHECK(tl.kernels[0].time_us == 4.519055555555555);
  CHECK(tl.kernels[0].role == KernelRole::ReshapeCache);
  CHECK(*tl.kernels[0].percent == 25.09);
  CHECK(*tl.kernels[1].percent == 74.91);
  CHECK(tl.has_reshape_cache);
  CHECK_FALSE(tl.has_paged_attention);

  const KernelBreakdown fixed = parse_kernel_breakdown(details, false);
  REQUIRE(fixed.kernels.size() == 2);
  CHECK(fixed.kernels[0].name ==
        "void vllm::reshape_and_cache_flash_kernel<(vllm::Fp8KVCacheDataType)1>(int)");
  CHECK(fixed.kernels[0].time_us == 162.686);
  CHECK(*fixed.kernels[0].percent == 25.09);  // same counts: the shares agree here

  CHECK(parse_kernel_breakdown("[{'name': 'k', 'mean_duration_us': 1.2.3}]", true).kernels.empty());
  // TraceLens strips numpy scalar wrappers before matching.
  const auto wrapped =
      parse_kernel_breakdown("[{'name': 'k', 'mean_duration_us': np.float64(2.5)}]", true);
  REQUIRE(wrapped.kernels.size() == 1);
  CHECK(wrapped.kernels[0].time_us == 2.5);
  CHECK(*wrapped.kernels[0].percent == 100.0);
  CHECK(parse_kernel_breakdown("", true).kernels.empty());
}

TEST_CASE("sdpa: perf_params -> workload profile with Python types") {
  const WorkloadProfile gqa = parse_perf_params(
      "{'B': 1, 'N_Q': 8192, 'H_Q': 64, 'N_KV': 8192, 'H_KV': 8, 'd_h_qk': 64, 'causal': False}");
  CHECK(gqa.n_q.as_int() == 8192);
  CHECK(gqa.sum_ctx_tokens.as_int() == 0);  // absent -> 0 (TraceLens default)
  CHECK(gqa.ctx_ratio.is_null());
  CHECK(gqa.workload_type == WorkloadType::Unknown);
  CHECK(gqa.attention_pattern.as_string() == "GQA");
  CHECK(gqa.gqa_ratio.as_int() == 8);

  const WorkloadProfile decode =
      parse_perf_params("{'H_Q': 8, 'H_KV': 8, 'sum_ctx_tokens': 100, 'sum_gen_tokens': 900}");
  CHECK(decode.ctx_ratio.as_double() == 0.1);
  CHECK(decode.workload_type == WorkloadType::DecodeHeavy);
  CHECK(decode.attention_pattern.as_string() == "MHA");

  const WorkloadProfile broken = parse_perf_params("not a dict");
  CHECK(broken.n_q.is_null());
  CHECK(broken.sum_ctx_tokens.is_null());
  CHECK(std::string(workload_type_name(broken.workload_type)) == "unknown");
}

TEST_CASE("sdpa: expected efficiency by sequence length and head-dim padding") {
  CHECK(expected_band(128).low == 5);
  CHECK(expected_band(1024).high == 40);
  CHECK(expected_band(4096).low == 40);
  CHECK(expected_band(32768).low == 50);
  const auto waste = head_dim_waste(192);
  REQUIRE(waste);
  CHECK(waste->padded == 256);
  CHECK(waste->waste_percent == Approx(25.0));
  CHECK_FALSE(head_dim_waste(128));
  CHECK_FALSE(head_dim_waste(64));
  CHECK(head_dim_waste(80)->padded == 128);
}

TEST_CASE("sdpa: framework from the call stack selects the flash-path advice") {
  Json op = Json::object();
  op["call_chain"] = Json::array();
  op["call_chain"].push_back("transformers/models/bert/modeling_bert.py(364): forward");
  CHECK(framework_of(op) == Framework::HuggingFace);
  CHECK(flash_path_selection(Framework::HuggingFace).find("flash_attention_2") !=
        std::string::npos);
  op["launcher_path"] = "vllm/attention/layer.py(852): unified_attention_with_output";
  CHECK(framework_of(op) == Framework::Vllm);
  CHECK(flash_path_selection(Framework::Vllm).find("VLLM_ATTENTION_BACKEND") != std::string::npos);
  CHECK(flash_path_selection(Framework::PyTorch).find("sdpa_kernel(SDPBackend.FLASH_ATTENTION)") !=
        std::string::npos);
}

namespace {

// One attention operation of the metrics, as the prose reads it.
Json attention_op(const std::string& name, const std::string& kernel, const std::string& stack) {
  Json op = Json::object();
  op["name"] = name;
  op["kernel_name"] = kernel;
  op["call_chain"] = Json::array();
  op["call_chain"].push_back(stack);
  Json classification = Json::object();
  classification["attention_type"] = "standard";  // what the op name alone says
  op["classification"] = classification;
  return op;
}

std::string action_for(const Json& op) {
  const Json metrics = Json::object();
  Json finding = Json::object();
  finding["bound_type"] = "compute";
  loupe::compute::FindingContext f{metrics, finding, 0, {&op}, false};
  return SdpaProse().action(f);
}

}  // namespace

TEST_CASE("sdpa: actions follow the kernel family and the platform it shows", "[sdpa][serving]") {
  // AITER's fused paged prefill under SGLang on MI300X: not "unfused", no `fa3` (Hopper only),
  // SGLang's own switches instead of vLLM's.
  const Json aiter = attention_op(
      "sglang::attention", "_ZN7ck_tile6kentryINS_38FmhaBatchPrefillWithPagedKVCacheKernelE",
      "sglang/srt/layers/attention/aiter_backend.py(700): forward_extend");
  const AttentionFacts a = attention_facts(aiter);
  CHECK(a.type == AttentionType::Paged);
  CHECK(a.family.library == loupe::compute::KernelLibrary::kAiter);
  const std::string action = action_for(aiter);
  CHECK(action.find("fa3") == std::string::npos);
  CHECK(action.find("vLLM") == std::string::npos);
  CHECK(action.find("`aiter`") != std::string::npos);
  CHECK(action.find("Migrate to a fused") == std::string::npos);

  // Fires: SGLang on NVIDIA Hopper gets `fa3` among its backends; on another NVIDIA GPU not.
  CHECK(flash_path_selection(Framework::Sglang, loupe::compute::GpuVendor::kNvidia, true)
            .find("`fa3`") != std::string::npos);
  CHECK(flash_path_selection(Framework::Sglang, loupe::compute::GpuVendor::kNvidia, false)
            .find("`fa3`") == std::string::npos);
  CHECK(flash_path_selection(Framework::Vllm, loupe::compute::GpuVendor::kAmd).find("FLASHINFER") ==
        std::string::npos);

  // A standard op whose kernel is unfused PyTorch softmax: the flash migration fires.
  const Json eager =
      attention_op("aten::bmm", "void at::native::(anonymous namespace)::cunn_SoftMaxForward<8>",
                   "torch/nn/functional.py(2000): softmax");
  CHECK(action_for(eager).find("Migrate to a fused flash-attention path") != std::string::npos);

  // AOTriton flash under PyTorch SDPA (xDiT on ROCm): already flash, never told to force it.
  Json xdit = attention_op("aten::_scaled_dot_product_flash_attention",
                           "Kernel 1: void at::native::vectorized_elementwise_kernel<4>"
                           "<br>Kernel 2: attn_fwd",
                           "diffusers/models/attention_processor.py(1000): __call__");
  xdit["classification"]["attention_type"] = "flash";
  xdit["perf_params"] = "{'B': 1, 'N_Q': 4608, 'N_KV': 4608, 'H_Q': 24, 'H_KV': 24, 'd_h_qk': 128}";
  const AttentionFacts x = attention_facts(xdit);
  CHECK(x.kernel == "attn_fwd");
  CHECK(x.family.library == loupe::compute::KernelLibrary::kAoTriton);
  const std::string xa = action_for(xdit);
  CHECK(xa.find("SDPBackend.FLASH_ATTENTION") == std::string::npos);
}
