// orchestrator_prepare Step 5 / 5.5 on small tables: category keys, pandas' re-serialization
// of the rows, the time breakdown and the skills.
#include <catch2/catch.hpp>

#include "category_split.hpp"
#include "loupe/json_value.hpp"

namespace ad = loupe::core::prepare::analysis_dir;

TEST_CASE("rows are split by op category in first-appearance order", "[prepare][category]") {
  const auto table = loupe::core::parse_csv(
      "name,op category,operation_count,total_duration_us,Kernel Time (µs)_sum,note\n"
      "aten::mm,GEMM,3,12.0,4.25,\"a, b\"\n"
      "aten::foo,,1,7000,1000.0,\n"
      "aten::convolution,CONV_fwd,,2.0,1.0,x\n"
      "aten::addmm,GEMM,2,3,1,\n");
  const auto categories = ad::split_categories(table);
  REQUIRE(categories.size() == 3);
  CHECK(categories[0].name == "gemm");
  CHECK(categories[0].display_name == "GEMM");
  CHECK(categories[0].ops_count == 2);
  CHECK(categories[1].name == "other");  // NaN category
  CHECK(categories[1].display_name == "Other");
  CHECK(categories[2].name == "conv_fwd");
  // operation_count has a missing cell, so pandas reads it as float64 and writes "3.0";
  // the quoted text keeps its quotes; enhanced_category and display_name are appended.
  CHECK(categories[0].csv_text ==
        "name,op category,operation_count,total_duration_us,Kernel Time (µs)_sum,note,"
        "enhanced_category,display_name\n"
        "aten::mm,GEMM,3.0,12.0,4.25,\"a, b\",gemm,GEMM\n"
        "aten::addmm,GEMM,2.0,3.0,1.0,,gemm,GEMM\n");
  // Step 5.5: gemm 5.25 us of kernels, 15 us of CPU time, no op above 5x its kernel time
  // (sync_time_ms stays the int 0).
  const auto& gemm = categories[0].time_breakdown;
  CHECK(gemm.find("gpu_kernel_time_ms")->as_double() == 0.005);
  CHECK(gemm.find("cpu_duration_ms")->as_double() == 0.015);
  CHECK(gemm.find("sync_time_ms")->is_int());
  CHECK(gemm.find("sync_ops_count")->as_int() == 0);
  // other: 7000 us of CPU for 1000 us of kernels -> 6 ms of sync time, a bottleneck.
  const auto& other = categories[1].time_breakdown;
  CHECK(other.find("sync_time_ms")->as_double() == 6.0);
  CHECK(other.find("sync_ops_count")->as_int() == 1);
  CHECK(other.find("has_sync_bottleneck")->as_bool());
  CHECK_FALSE(gemm.find("has_sync_bottleneck")->as_bool());
}

TEST_CASE("category skills follow TraceLens's map", "[prepare][category]") {
  CHECK(ad::category_skill("conv_fwd") == "convolution-analyzer");
  CHECK(ad::category_skill("gemm") == "gemm-analyzer");
  CHECK(ad::category_skill("norm_fwd") == "norm-analyzer");
  CHECK(ad::category_skill("other") == "generic-op-analyzer");
  CHECK(ad::category_skill("multi_tensor_apply") == "generic-op-analyzer");
}
