#include <catch2/catch.hpp>

#include "norm_prose.hpp"

using loupe::norm::classify_norm;

TEST_CASE("norm: variants of the analyzer prompt") {
  CHECK(classify_norm("aten::native_batch_norm_backward") == "BatchNorm");
  CHECK(classify_norm("aten::cudnn_batch_norm") == "BatchNorm");
  CHECK(classify_norm("aten::layer_norm") == "LayerNorm");
  CHECK(classify_norm("aten::native_group_norm") == "GroupNorm");
  CHECK(classify_norm("aten::instance_norm") == "InstanceNorm");
  CHECK(classify_norm("aiter::rms_norm") == "RMSNorm");
  CHECK(classify_norm("vllm::fused_add_rmsnorm_") == "RMSNorm");
  CHECK(classify_norm("aten::norm") == "Other");
}
