#include <catch2/catch.hpp>

#include "gemm_category_specific.hpp"
#include "gemm_prose.hpp"
#include "gemm_shape.hpp"
#include "loupe/compute/findings_builder.hpp"

using loupe::gemm::diagnose;
using loupe::gemm::GemmDims;
using loupe::gemm::ShapePattern;

TEST_CASE("gemm: quantized op names and the classification object") {
  CHECK(loupe::gemm::is_quantized_gemm("aiter::gemm_a8w8_FP8_blockscale"));
  CHECK(loupe::gemm::is_quantized_gemm("vllm::w8a8_scaled_mm"));
  CHECK(loupe::gemm::is_quantized_gemm("MXFP4_moe"));
  CHECK_FALSE(loupe::gemm::is_quantized_gemm("aten::addmm"));
  const loupe::Json c = loupe::gemm::classify_gemm("_scaled_mm_fp8");
  CHECK(c.find("is_quantized")->as_bool());
  CHECK(c.find("gemm_type")->as_string() == "quantized");
  CHECK(loupe::gemm::classify_gemm("aten::mm").find("gemm_type")->as_string() == "regular");
}

TEST_CASE("gemm: shape from the perf model's parameters") {
  const auto dims = loupe::gemm::dims_from_perf_params(
      "{'M': 256, 'N': 512, 'K': 131072, 'bias': False, 'stride_A': None, 'B': 1, "
      "'transpose': (False, False)}");
  REQUIRE(dims);
  CHECK(dims->m == 256);
  CHECK(dims->n == 512);
  CHECK(dims->k == 131072);
  CHECK(dims->batch == 1);
  CHECK(loupe::gemm::output_tiles(*dims) == 8);
  CHECK_FALSE(loupe::gemm::dims_from_perf_params("{'M': 0, 'N': 1, 'K': 1}"));
  CHECK_FALSE(loupe::gemm::dims_from_perf_params("not a dict"));
  CHECK_FALSE(loupe::gemm::dims_from_perf_params("{'M': 4, 'N': 'x', 'K': 1}"));
  const auto round_trip = loupe::gemm::dims_from_json(loupe::gemm::dims_json(GemmDims{3, 4, 5, 6}));
  REQUIRE(round_trip);
  CHECK(round_trip->batch == 6);
  CHECK_FALSE(loupe::gemm::dims_from_json(loupe::gemm::dims_json(GemmDims{0, 4, 5, 1})));
}

TEST_CASE("gemm: shape patterns of the four synthetic GEMM cases") {
  // gemm_01: 8 output tiles, K = 131072 -> split-K / stream-K.
  CHECK(diagnose(GemmDims{256, 512, 131072, 1}, false).pattern == ShapePattern::FewTiles);
  // gemm_02 / gemm_03: 1025 and 4097 are not multiples of 8 -> pad N and K (the dimensions the
  // loads run along) to multiples of 64; M, the row count, sets no alignment.
  const auto odd = diagnose(GemmDims{4097, 4097, 4097, 1}, false);
  REQUIRE(odd.pattern == ShapePattern::Misaligned);
  REQUIRE(odd.pad.size() == 2);
  CHECK(odd.pad[0].to == 4160);
  CHECK(loupe::gemm::padding_list(odd.pad) == "N from 4097 to 4160 and K from 4097 to 4160");
  const auto non_pow2 = diagnose(GemmDims{1025, 1025, 8192, 1}, false);
  CHECK(non_pow2.pattern == ShapePattern::Misaligned);
  CHECK(loupe::gemm::padding_list(non_pow2.pad) == "N from 1025 to 1088");
  // An odd token count alone (M) is no reason to pad.
  CHECK(diagnose(GemmDims{4097, 4096, 4096, 1}, false).pattern == ShapePattern::None);
  // gemm_04: memory-bound 131072 x 32 x 32 -> batch or fuse.
  CHECK(diagnose(GemmDims{131072, 32, 32, 1}, true).pattern == ShapePattern::TallSkinny);
  // Aligned but off the 64 tile edge (and not a power of two): padding fires only when the
  // empty share of the last tile (1000 -> 1024: 2.3 %) explains at least half the gap.
  const auto off = diagnose(GemmDims{1000, 4096, 4096, 1}, false, 96.0);  // gap 4 %
  CHECK(off.pattern == ShapePattern::OffTile);
  CHECK(loupe::gemm::padding_list(off.pad) == "M from 1000 to 1024");
  CHECK(diagnose(GemmDims{1000, 4096, 4096, 1}, false, 50.0).pattern == ShapePattern::None);
  CHECK(diagnose(GemmDims{1000, 4096, 4096, 1}, false).pattern == ShapePattern::None);     // < 5 %
  CHECK(diagnose(GemmDims{1090, 4096, 4096, 1}, false).pattern == ShapePattern::OffTile);  // 5.4 %
  // The serving cases that promised time padding cannot deliver: 8944 -> 8960 (0.18 % of the
  // tile row) and 5185 -> 5248 against 35 % roofline gaps.
  CHECK(diagnose(GemmDims{8944, 4096, 4096, 1}, false, 65.0).pattern == ShapePattern::None);
  CHECK(diagnose(GemmDims{5185, 4096, 4096, 1}, false, 65.0).pattern == ShapePattern::None);
  // Nothing to act on: aligned, many tiles.
  CHECK(diagnose(GemmDims{4096, 4096, 4096, 1}, false).pattern == ShapePattern::None);
  // Memory-bound with a short K loop and a large output (attention scores, outer products).
  CHECK(diagnose(GemmDims{5185, 5185, 64, 16}, true).pattern == ShapePattern::ShortK);
  // The same tall shape compute-bound is not "tall-skinny memory-bound".
  CHECK(diagnose(GemmDims{131072, 32, 32, 1}, false).pattern == ShapePattern::None);
}

namespace {

std::string compute_bound_action(const std::string& kernel_name, bool measured = true) {
  loupe::Json op = loupe::Json::object();
  op["name"] = "aten::mm";
  op["kernel_name"] = kernel_name;
  const loupe::Json metrics = loupe::Json::object();
  loupe::Json finding = loupe::Json::object();
  finding["bound_type"] = "compute";
  loupe::compute::FindingContext f{metrics, finding, 0, {&op}, false};
  return loupe::gemm::GemmProse(measured).action(f);
}

}  // namespace

TEST_CASE("gemm: TunableOp only for the BLAS libraries it tunes", "[gemm][kernel_family]") {
  // Fires: hipBLASLt (ROCm) and cuBLAS (NVIDIA) kernels.
  const std::string hipblaslt =
      compute_bound_action("Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT256x32x64_MI16x16x1");
  CHECK(hipblaslt.find("`PYTORCH_TUNABLEOP_ENABLED=1`") != std::string::npos);
  CHECK(hipblaslt.find("hipBLASLt") != std::string::npos);
  CHECK(compute_bound_action("Kernel 1: nvjet_hsh_128x256_64x4_2x1_v_bz_coopA_NNT")
            .find("fastest cuBLAS solution") != std::string::npos);
  // Must not: compat mode keeps the analyzer prompt's action table.
  CHECK(compute_bound_action("Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT256x32x64", false)
            .find("TunableOp") == std::string::npos);
  // Must not: AITER, Triton and CUTLASS kernels have their own tuners.
  for (const char* kernel : {"_ZN5aiter18gemm_a16w16_kernelI", "_matmul_ogs_NNT_bf16xbf16xmxfp4",
                             "cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm>"}) {
    INFO(kernel);
    CHECK(compute_bound_action(kernel).find("TunableOp") == std::string::npos);
  }
}
