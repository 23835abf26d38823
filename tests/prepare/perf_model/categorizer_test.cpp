// Registry and §3.9.1 categorizer behaviour.
#include <catch2/catch.hpp>

#include <algorithm>

#include "loupe/core/prepare/perf_model.hpp"

namespace perf = loupe::core::prepare::perf;

TEST_CASE("op_category follows registry, name prefixes, then the first kernel", "[perf_model]") {
  // Exact names with a model use the class category.
  CHECK(perf::op_category("aten::addmm", "") == "GEMM");
  CHECK(perf::op_category("aten::convolution", "igemm_fwd") == "CONV_fwd");
  CHECK(perf::op_category("aten::convolution_backward", "") == "CONV_bwd");
  CHECK(perf::op_category("aten::native_batch_norm_backward", "") == "NORM_bwd");
  CHECK(perf::op_category("aten::layer_norm", "") == "NORM_fwd");
  CHECK(perf::op_category("aten::mean", "") == "reduce");
  CHECK(perf::op_category("aten::copy_", "void at::native::reduce_kernel") == "elementwise");
  CHECK(perf::op_category("aten::_scaled_dot_product_flash_attention", "") == "SDPA_fwd");
  CHECK(perf::op_category("vllm::unified_attention_with_output", "") == "InferenceAttention");
  CHECK(perf::op_category("aiter::ck_moe_stage1", "") == "MoE_unfused");
  CHECK(perf::op_category("aiter::moe_sorting_fwd", "") == "MoE_aux");
  // Category-only names.
  CHECK(perf::op_category("aten::miopen_convolution", "") == "CONV_fwd");
  CHECK(perf::op_category("aten::cudnn_convolution", "") == "CONV_fwd");
  CHECK(perf::op_category("aiter::moe_sum", "") == "MoE_aux");
  CHECK(perf::op_category("_C_cache_ops::reshape_and_cache_flash", "") == "InferenceAttention");
  CHECK(perf::op_category("FlashAttnFuncBackward", "") == "SDPA_bwd");
  // Name prefixes (checked before the kernel name).
  CHECK(perf::op_category("triton_poi_fused_add_0", "void at::native::elementwise") == "triton");
  CHECK(perf::op_category("triton::fused_moe_kernel", "") == "triton");
  CHECK(perf::op_category("record_param_comms", "ncclDevKernel") == "record_param_comms");
  // First kernel name: only "void at::native…" kernels, needles in rule order.
  CHECK(perf::op_category("aten::fill_",
                          "void at::native::vectorized_elementwise_kernel<4, FillFunctor>") ==
        "elementwise");
  CHECK(perf::op_category("aten::argmax", "void at::native::reduce_kernel<512, 1>") == "reduce");
  CHECK(perf::op_category("aten::_foreach_add_",
                          "void at::native::(anonymous namespace)::multi_tensor_apply_kernel") ==
        "multi_tensor_apply");
  CHECK(perf::op_category("aten::cat", "void at::native::CatArrayBatchedCopy") == "other");
  CHECK(perf::op_category("aten::fill_", "elementwise_kernel") == "other");
  CHECK(perf::op_category("aten::max_pool2d_with_indices", "") == "other");
  // Not modeled even though the kernels are GEMMs (children carry the model).
  CHECK(perf::op_category("aten::linear", "Cijk_Alik_Bljk") == "other");
}

TEST_CASE("registry: has_model and class descriptors", "[perf_model]") {
  CHECK(perf::has_model("aten::mm"));
  CHECK(perf::has_model("aten::upsample_nearest1d"));
  CHECK(perf::has_model("aiter::gemm_a8w8_blockscale_ck"));
  CHECK_FALSE(perf::has_model("aten::linear"));
  CHECK_FALSE(perf::has_model("aten::matmul"));
  CHECK_FALSE(perf::has_model("aten::miopen_convolution"));
  CHECK_FALSE(perf::has_model("aten::relu"));
  // Inductor ops resolve through the name matcher after the exact names (whether their trace
  // args describe the kernel is can_model's question, see triton_model_test.cpp).
  CHECK(perf::has_model("triton_poi_fused_add_0"));
  CHECK(perf::has_model("triton_red_fused_sum_1"));
  CHECK(perf::has_model("triton_per_fused_sum_2"));
  CHECK_FALSE(perf::has_model("triton::fused_moe_kernel"));

  const auto* conv = perf::find_model("aten::convolution");
  REQUIRE(conv != nullptr);
  CHECK(conv->bwd_category == "CONV_bwd");
  CHECK(conv->sheet_family == "CONV");
  CHECK(conv->maf == perf::Maf::kMatrix);
  CHECK(conv->has_backward);
  const auto* mm = perf::find_model("aten::mm");
  REQUIRE(mm != nullptr);
  CHECK(mm->bwd_category.empty());
  CHECK_FALSE(mm->has_backward);
  const auto* mean = perf::find_model("aten::mean");
  REQUIRE(mean != nullptr);
  CHECK(mean->sheet_family == "Reduce");
  CHECK(mean->bwd_category.empty());  // Reduce declares bwd_category None
  CHECK(mean->has_backward);
  CHECK(perf::find_model("aten::copy_")->sheet_family == "UnaryElementwise");
  CHECK(perf::find_model("aten::mul")->sheet_family == "BinaryElementwise");
  CHECK(perf::find_model("aten::native_batch_norm_backward")->sheet_family == "Normalization");

  const auto& families = perf::sheet_families();
  const auto gemm = std::find_if(families.begin(), families.end(),
                                 [](const auto& f) { return f.first == "GEMM"; });
  REQUIRE(gemm != families.end());
  CHECK(gemm->second.front() == "aten::mm");
}
