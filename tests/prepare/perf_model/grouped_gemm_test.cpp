// Primus-Turbo / CK grouped GEMMs (grouped_gemm.cpp): both argument spellings, fixed and
// variable K, with flops and bytes computed by hand.
#include <catch2/catch.hpp>

#include "loupe/core/prepare/perf_model.hpp"
#include "prepare_test_support.hpp"

namespace perf = loupe::core::prepare::perf;
using loupe::test::evaluate_forward;
using loupe::test::model_param;
using loupe::test::op_args;

TEST_CASE("grouped GEMM with shared K and N", "[perf_model][grouped_gemm]") {
  const char* bf16 = R"(["c10::BFloat16","c10::BFloat16"])";
  // X [256, 128], four experts' W [4, 128, 64]: (256*128 + 4*128*64) * 2 + 256*64 * 2.
  for (const char* w : {"[4,128,64]", "[4,64,128]"}) {
    const auto r = evaluate_forward("primus_turbo::grouped_gemm_impl",
                                    op_args((std::string("[[256,128],") + w + "]").c_str(), bf16));
    REQUIRE(r.ok());
    CHECK(model_param(r, "N") == "64");
    CHECK(r.flops.to_double() == 4194304.0);  // 2 * 256 * 128 * 64
    CHECK(r.bytes->to_double() == 163840.0);
    CHECK(r.compute_spec == "matrix_bf16");
  }
  // Zipped: groups of 100 and 156 rows, each W [128, 64]: M = 256, G = 2.
  const auto zipped =
      evaluate_forward("primus_turbo_cpp_extension::ck_grouped_gemm",
                       op_args("[[[100,128],[156,128]],[[128,64],[128,64]]]", bf16));
  REQUIRE(zipped.ok());
  CHECK(model_param(zipped, "G") == "2");
  CHECK(zipped.flops.to_double() == 4194304.0);
  CHECK(zipped.bytes->to_double() == (32768 + 16384) * 2 + 32768);
  // No backward formulas (the rows leave the backward sheet).
  CHECK(perf::evaluate("primus_turbo::grouped_gemm", op_args("[[256,128],[4,128,64]]", bf16),
                       perf::Direction::kBackward)
            .error == perf::ModelError::kNotImplemented);
  CHECK(evaluate_forward("primus_turbo::grouped_gemm", op_args("[[5]]", bf16)).error ==
        perf::ModelError::kFailed);
  // An element width the table does not know leaves the byte formula without a number.
  CHECK(evaluate_forward("primus_turbo::grouped_gemm",
                         op_args("[[256,128],[4,128,64]]", R"(["x","x"])"))
            .error == perf::ModelError::kFailed);
}

TEST_CASE("grouped GEMM with per-group K", "[perf_model][grouped_gemm]") {
  // FP8 in, bf16 out. Group 1: [64, 32] @ [32, 16]; group 2: [64, 96] @ [96, 16].
  const auto r = evaluate_forward("primus_turbo::grouped_gemm_variable_k",
                                  op_args("[[[64,32],[64,96]],[[32,16],[96,16]]]",
                                          R"(["c10::Float8_e4m3fnuz","c10::BFloat16"])"));
  REQUIRE(r.ok());
  CHECK(model_param(r, "M") == "128");
  CHECK(model_param(r, "group_pairs") == "[((64, 32), (32, 16)), ((64, 96), (96, 16))]");
  CHECK(r.flops.to_double() == 65536.0 + 196608.0);  // 2*64*32*16 + 2*64*96*16
  // (64*32 + 32*16) + 64*16*2 = 4608; (64*96 + 96*16) + 64*16*2 = 9728.
  CHECK(r.bytes->to_double() == 4608.0 + 9728.0);
  CHECK(r.compute_spec == "matrix_fp8");
  // Compact spelling: X [128, 64] and Y [128, 32], one group.
  const auto compact = evaluate_forward("primus_turbo_cpp_extension::grouped_gemm_variable_k",
                                        op_args("[[128,64],[128,32]]", R"(["c10::BFloat16"])"));
  REQUIRE(compact.ok());
  CHECK(compact.flops.to_double() == 524288.0);  // 2 * 128 * 64 * 32
}
