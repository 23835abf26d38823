#include <catch2/catch.hpp>

#include "triton_analyzer.hpp"
#include "triton_prose.hpp"

using loupe::triton::triton_kernel_type;

TEST_CASE("triton: inductor kernel types by prefix") {
  CHECK(triton_kernel_type("triton_poi_fused_add_gelu_1") == "pointwise");
  CHECK(triton_kernel_type("TRITON_RED_fused_sum_36") == "reduction");
  CHECK(triton_kernel_type("triton_per_fused_native_layer_norm_0") == "persistent");
  CHECK(triton_kernel_type("triton::fused_moe_kernel") == "other");
  CHECK(triton_kernel_type("my_triton_poi_kernel") == "other");
  CHECK(loupe::triton::classify_triton("triton_red_fused_0").find("kernel_type")->as_string() ==
        "reduction");
}
