// matmul_ogs MoE matmuls (docs/deviations.md, "MoE matmuls (matmul_ogs)"): what the kernel name
// says, and FLOPs/bytes of one expert matmul from the MoE layer's shapes, checked against the
// formulas worked by hand below.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "loupe/core/prepare/moe_matmul_ogs.hpp"

namespace perf = loupe::core::prepare::perf;

namespace {

std::string param(const perf::ModelResult& r, const std::string& key) {
  for (const auto& [k, v] : r.params) {
    if (k == key) return v.repr();
  }
  return "<absent>";
}

}  // namespace

TEST_CASE("matmul_ogs kernel names: layout, dtypes, tile, split-k and fused activation",
          "[perf_model][moe]") {
  const auto up =
      perf::parse_matmul_ogs_kernel("_matmul_ogs_NNT_bf16xbf16xmxfp4_16x128x256x1_swiglu");
  REQUIRE(up);
  CHECK(up->layout == "NNT");
  CHECK(up->out_dtype == "bf16");
  CHECK(up->act_dtype == "bf16");
  CHECK(up->weight_dtype == "mxfp4");
  CHECK(up->block_m == 16);
  CHECK(up->block_n == 128);
  CHECK(up->block_k == 256);
  CHECK(up->split_k == 1);
  CHECK(up->fused_activation == "swiglu");
  CHECK(up->gated());

  const auto down = perf::parse_matmul_ogs_kernel("_matmul_ogs_NNT_bf16xbf16xmxfp4_128x128x128x1");
  REQUIRE(down);
  CHECK(down->block_m == 128);
  CHECK_FALSE(down->gated());
  // The persistent variant carries a prefix; the pattern is the same.
  const auto persistent =
      perf::parse_matmul_ogs_kernel("_p_matmul_ogs_NNT_fp8e4m3xfp8e4m3xfp8e4m3_64x64x128x2");
  REQUIRE(persistent);
  CHECK(persistent->weight_dtype == "fp8e4m3");
  CHECK(persistent->split_k == 2);

  CHECK(perf::is_matmul_ogs_kernel("_matmul_ogs_NNT_bf16xbf16xmxfp4_16x128x256x1"));
  CHECK_FALSE(perf::is_matmul_ogs_kernel("Cijk_Alik_Bljk_BBS_BH"));
  // Malformed: too few dtypes, a non-numeric tile, a zero block, missing parts, extra parts.
  CHECK_FALSE(perf::parse_matmul_ogs_kernel("_matmul_ogs_NNT_bf16xmxfp4_16x128x256x1"));
  CHECK_FALSE(perf::parse_matmul_ogs_kernel("_matmul_ogs_NNT_bf16xbf16xmxfp4_16xAx256x1"));
  CHECK_FALSE(perf::parse_matmul_ogs_kernel("_matmul_ogs_NNT_bf16xbf16xmxfp4_0x128x256x1"));
  CHECK_FALSE(perf::parse_matmul_ogs_kernel("_matmul_ogs_NNT"));
  CHECK_FALSE(perf::parse_matmul_ogs_kernel("_matmul_ogs_NNT_bf16xbf16xmxfp4_16x128x256x1_a_b"));
  CHECK_FALSE(perf::parse_matmul_ogs_kernel("matmul_kernel"));

  // MXFP4: two values per byte plus one E8M0 scale byte per block of 32.
  CHECK(perf::moe_dtype_bytes("mxfp4") == 0.5 + 1.0 / 32.0);
  CHECK(perf::moe_dtype_bytes("bf16") == 2.0);
  CHECK(perf::moe_dtype_bytes("fp8e4m3") == 1.0);
  CHECK_FALSE(perf::moe_dtype_bytes("weird"));
}

TEST_CASE("matmul_ogs intermediate size from the expert weights the call reads",
          "[perf_model][moe]") {
  const perf::MoeLayerShape layer{32, 3072, 32, 4, std::nullopt};
  // The pack's GPT-OSS capture: up [E, H/2, 2*I] and down [E, I/2, H], MXFP4 packed.
  const std::vector<std::int64_t> up{32, 1536, 5888};
  const std::vector<std::int64_t> down{32, 1472, 3072};
  CHECK(perf::expert_intermediate_size(up, true, true, layer) == 2944);
  CHECK(perf::expert_intermediate_size(down, true, false, layer) == 2944);
  // FP8 weights are one value per byte.
  CHECK(perf::expert_intermediate_size(std::vector<std::int64_t>{32, 2944, 3072}, false, false,
                                       layer) == 2944);
  // Weights that do not fit the layer say nothing: another expert count, the hidden size on
  // neither side, the wrong stage, another rank.
  CHECK_FALSE(
      perf::expert_intermediate_size(std::vector<std::int64_t>{16, 1536, 5888}, true, true, layer));
  CHECK_FALSE(perf::expert_intermediate_size(up, false, true, layer));
  CHECK_FALSE(perf::expert_intermediate_size(down, true, true, layer));
  CHECK_FALSE(
      perf::expert_intermediate_size(std::vector<std::int64_t>{1536, 5888}, true, true, layer));
}

TEST_CASE("matmul_ogs model: up (gated) and down projections from the MoE layer's shapes",
          "[perf_model][moe]") {
  // GPT-OSS decode on the pack's capture: 32 tokens, hidden 3072, 32 experts, top-4, the
  // intermediate size 2944 read from the expert weights.
  const perf::MoeLayerShape shape{32, 3072, 32, 4, 2944};
  // Experts a uniform router activates: 32 * (1 - (28/32)^32).
  const double active = 32.0 * (1.0 - std::pow(28.0 / 32.0, 32.0));
  REQUIRE(active == Approx(31.55392521479414));
  const double mxfp4 = 0.5 + 1.0 / 32.0;

  const auto up =
      perf::parse_matmul_ogs_kernel("_matmul_ogs_NNT_bf16xbf16xmxfp4_16x128x256x1_swiglu");
  REQUIRE(up);
  const perf::ModelResult u = perf::matmul_ogs_model(*up, shape, "");
  REQUIRE(u.ok());
  // 2 * T * H * I * k * 2 (gate and up).
  CHECK(u.flops.to_double() == 2.0 * 32 * 3072 * 2944 * 4 * 2);
  CHECK(u.flops.to_double() == 4630511616.0);
  // x [T, H] bf16 + active * 2 * H * I MXFP4 with scales + out [T * k, I] bf16.
  REQUIRE(u.bytes);
  CHECK(u.bytes->to_double() ==
        Approx(32.0 * 3072 * 2 + active * 2 * 3072 * 2944 * mxfp4 + 32.0 * 2944 * 4 * 2)
            .epsilon(1e-12));
  CHECK(u.bytes->to_double() == Approx(304158755.0368033).epsilon(1e-12));
  CHECK(u.compute_spec == "matrix_bf16");
  CHECK(param(u, "evidence") == "'modeled'");
  CHECK(param(u, "moe_stage") == "'up'");
  CHECK(param(u, "inter_dim") == "2944");
  CHECK(param(u, "inter_dim_source") == "'expert weights'");
  CHECK(param(u, "topk") == "4");

  const auto down = perf::parse_matmul_ogs_kernel("_matmul_ogs_NNT_bf16xbf16xmxfp4_16x128x256x1");
  REQUIRE(down);
  const perf::ModelResult d = perf::matmul_ogs_model(*down, shape, "");
  REQUIRE(d.ok());
  CHECK(d.flops.to_double() == 2315255808.0);
  REQUIRE(d.bytes);
  // in [T * k, I] bf16 + active * I * H MXFP4 with scales + out [T, H] bf16.
  CHECK(d.bytes->to_double() == Approx(152554513.51840165).epsilon(1e-12));
  CHECK(param(d, "moe_stage") == "'down'");

  // Without the expert weights the intermediate size is taken equal to the hidden size.
  const perf::ModelResult assumed =
      perf::matmul_ogs_model(*up, perf::MoeLayerShape{32, 3072, 32, 4, std::nullopt}, "");
  REQUIRE(assumed.ok());
  CHECK(assumed.flops.to_double() == 4831838208.0);
  CHECK(assumed.bytes->to_double() == Approx(317374500.5601426).epsilon(1e-12));
  CHECK(param(assumed, "inter_dim_source") == "'assumed equal to hidden_dim'");
}

TEST_CASE("matmul_ogs model without shapes: heuristic params, the reason, no numbers",
          "[perf_model][moe]") {
  const auto up =
      perf::parse_matmul_ogs_kernel("_matmul_ogs_NNT_bf16xbf16xmxfp4_16x128x256x1_swiglu");
  REQUIRE(up);
  const perf::ModelResult r = perf::matmul_ogs_model(*up, std::nullopt, "no MoE op");
  CHECK_FALSE(r.ok());
  CHECK(r.error == perf::ModelError::kFailed);
  CHECK(r.message == "no MoE op");
  CHECK(param(r, "evidence") == "'heuristic'");
  CHECK(param(r, "missing") == "'no MoE op'");
  CHECK(param(r, "weight_dtype") == "'mxfp4'");
  CHECK(param(r, "tile") == "'16x128x256'");
  CHECK(param(r, "num_tokens") == "<absent>");
}
