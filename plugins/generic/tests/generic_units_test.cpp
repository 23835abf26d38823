// The generic analyzer's pure parts: TraceLens's sub-category rule, the op-kind reading behind
// the findings prose, and the action chosen for each kind.
#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "generic_op_kind.hpp"
#include "generic_sub_category.hpp"

using namespace loupe::generic;

TEST_CASE("generic: sub-category from the op name, communication before graph") {
  CHECK(classify_sub_category("symm_mem::multimem_all_reduce_") == SubCategory::Communication);
  CHECK(classify_sub_category("ncclKernel_AllGather_RING") == SubCategory::Communication);
  CHECK(classify_sub_category("hipGraphLaunch->rccl_broadcast (Synthetic Op)") ==
        SubCategory::Communication);
  CHECK(classify_sub_category("hipGraphLaunch->triton_poi_fused_0 (Synthetic Op)") ==
        SubCategory::Graph);
  CHECK(classify_sub_category("aten::index_select") == SubCategory::Miscellaneous);
  CHECK(classify_sub_category("nan") == SubCategory::Miscellaneous);
  CHECK(std::string(sub_category_name(SubCategory::Graph)) == "graph");
  CHECK(std::string(sub_category_name(SubCategory::Miscellaneous)) == "miscellaneous");
  CHECK(std::string(sub_category_name(SubCategory::Communication)) == "communication");
}

TEST_CASE("generic: what an op is, from pack op names") {
  CHECK(classify_op_kind("aten::_local_scalar_dense") == OpKind::HostSync);
  CHECK(classify_op_kind("aten::index_select") == OpKind::IndexGather);
  CHECK(classify_op_kind("aten::cat") == OpKind::IndexGather);
  CHECK(classify_op_kind("aten::_foreach_copy_") == OpKind::Optimizer);
  CHECK(classify_op_kind("aiter::moe_sorting_fwd") == OpKind::MoeRouting);
  CHECK(classify_op_kind("vllm::moe_forward") == OpKind::MoeLayer);
  CHECK(classify_op_kind("vllm::rocm_aiter_fused_moe") == OpKind::MoeLayer);
  CHECK(classify_op_kind("hipGraphLaunch->_topk_forward (Synthetic Op)") == OpKind::MoeRouting);
  CHECK(classify_op_kind("_C::fused_add_rms_norm") == OpKind::Normalization);
  CHECK(classify_op_kind("_C::rotary_embedding") == OpKind::Rotary);
  CHECK(classify_op_kind("hipGraphLaunch->kernel_unified_attention_2d (Synthetic Op)") ==
        OpKind::Attention);
  CHECK(classify_op_kind("hipGraphLaunch->Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV (Synthetic Op)") ==
        OpKind::Gemm);
  CHECK(classify_op_kind("Torch-Compiled Region: 0/0->triton_red_fused_add_mul_5 (Synthetic Op)") ==
        OpKind::CompiledFused);
  CHECK(classify_op_kind("aten::_softmax") == OpKind::Softmax);
  CHECK(classify_op_kind("_C::static_scaled_fp8_quant") == OpKind::CopyCast);
  CHECK(classify_op_kind("aten::max_pool2d_with_indices") == OpKind::Pooling);
  CHECK(classify_op_kind("my_lib::frobnicate") == OpKind::Other);
  CHECK(is_graph_replay("hipGraphLaunch->triton_poi_fused_0 (Synthetic Op)"));
  CHECK(is_graph_replay("cudaGraphLaunch->x"));
  CHECK_FALSE(is_graph_replay("aten::cat"));
}

TEST_CASE("generic: every kind has its own concrete action; the fallback follows the bound") {
  std::set<std::string> actions;
  for (const OpKind kind :
       {OpKind::HostSync, OpKind::Gemm, OpKind::Attention, OpKind::Normalization, OpKind::Rotary,
        OpKind::KvCache, OpKind::MoeLayer, OpKind::MoeRouting, OpKind::Softmax, OpKind::IndexGather,
        OpKind::CopyCast, OpKind::Optimizer, OpKind::Pooling, OpKind::CompiledFused,
        OpKind::Communication}) {
    actions.insert(op_kind_action(kind, "unknown"));
    CHECK_FALSE(op_kind_description(kind).empty());
  }
  CHECK(actions.size() == 15);
  CHECK(op_kind_action(OpKind::Optimizer, "memory").find("fused=True") != std::string::npos);
  CHECK(op_kind_action(OpKind::Other, "compute") != op_kind_action(OpKind::Other, "memory"));
  CHECK(op_kind_action(OpKind::Other, "memory").find("torch.compile") != std::string::npos);
}
