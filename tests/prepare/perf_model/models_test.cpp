// Per-family models on the spec's worked checks (docs/contracts/trace_model.md §3.6.3,
// §3.9.4–§3.9.8). The expected numbers are the ones TraceLens wrote for these ops in the reference
// pack.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "json_text.hpp"
#include "loupe/core/prepare/perf_model.hpp"
#include "prepare_test_support.hpp"

namespace perf = loupe::core::prepare::perf;
using loupe::core::prepare::parse_json_text;

namespace {

perf::OpArgs make_args(const char* dims, const char* types, const char* strides,
                       const char* concrete, std::vector<std::string> kernels = {}) {
  perf::OpArgs args;
  args.input_dims = parse_json_text(dims);
  args.input_types = parse_json_text(types);
  args.input_strides = parse_json_text(strides);
  args.concrete_inputs = parse_json_text(concrete);
  args.kernel_names = std::move(kernels);
  return args;
}

using loupe::test::model_param;

}  // namespace

TEST_CASE("conv forward and backward: resnet 64->64 3x3", "[perf_model]") {
  const auto fwd = perf::evaluate(
      "aten::convolution",
      make_args(
          "[[10,64,56,56],[64,64,3,3],[],[],[],[],[],[],[]]",
          R"(["c10::BFloat16","c10::BFloat16","","ScalarList","ScalarList","ScalarList","Scalar","ScalarList","Scalar"])",
          "[[200704,3136,56,1],[576,9,3,1],[],[],[],[],[],[],[]]",
          R"(["","","","[1, 1]","[1, 1]","[1, 1]","False","[0, 0]","1"])"));
  REQUIRE(fwd.ok());
  const auto m = perf::compute_metrics(fwd, 10.0, nullptr);
  CHECK(m.gflops == 2.31211008);
  CHECK(*m.data_moved_mb == 7.7265625);
  CHECK(m.compute_spec == "matrix_bf16");
  CHECK(model_param(fwd, "bias") == "False");  // 9 Input Dims entries: bias is never detected
  CHECK(model_param(fwd, "stride") == "(1, 1)");

  const auto bwd = perf::evaluate(
      "aten::convolution_backward",
      make_args(
          "[[10,64,56,56],[10,64,56,56],[64,64,3,3],[],[],[],[],[],[],[],[]]",
          R"(["c10::BFloat16","c10::BFloat16","c10::BFloat16","ScalarList","ScalarList","ScalarList","ScalarList","Scalar","ScalarList","Scalar","ScalarList"])",
          "[[200704,3136,56,1],[200704,3136,56,1],[576,9,3,1],[],[],[],[],[],[],[],[]]",
          R"(["","","","[0]","[1, 1]","[1, 1]","[1, 1]","False","[0, 0]","1","[True, True, False]"])"));
  REQUIRE(bwd.ok());
  const auto mb = perf::compute_metrics(bwd, 10.0, nullptr);
  CHECK(mb.gflops == 4.62422016);
  CHECK(*mb.data_moved_mb == 15.453125);
  CHECK(model_param(bwd, "bias") == "[]");  // the empty bias_sizes dims entry itself (quirk)
}

TEST_CASE("addmm: h100 bert worked example", "[perf_model]") {
  const auto r = perf::evaluate(
      "aten::addmm",
      make_args("[[512],[141,512],[512,512],[],[]]",
                R"(["c10::BFloat16","c10::BFloat16","c10::BFloat16","Scalar","Scalar"])",
                "[[1],[512,1],[1,512],[],[]]", R"(["","","","1","1"])",
                {"void "
                 "cutlass::Kernel2<cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_32x32_128x2_tn_"
                 "align8>"}));
  REQUIRE(r.ok());
  CHECK(perf::params_repr(r.params) ==
        "{'M': 141, 'N': 512, 'K': 512, 'bias': True, 'stride_A': (512, 1), 'stride_B': (1, 512), "
        "'dtype_A_B': ('c10::BFloat16', 'c10::BFloat16'), 'B': 1}");
  const auto m = perf::compute_metrics(r, 1.0, nullptr);
  CHECK(m.gflops == (2.0 * 141 * 512 * 512 + 141 * 512) / 1e9);
  CHECK(*m.data_moved_mb == (141.0 * 512 + 512 * 512 + 141 * 512 + 512) * 2 / 1048576);
  CHECK(std::abs(m.flops_per_byte - 90.896) < 1e-3);
  CHECK(m.compute_spec == "matrix_bf16");
  // GEMMs have no backward formulas: "not implemented" (the row is dropped).
  CHECK(perf::evaluate("aten::addmm",
                       make_args("[[512],[141,512],[512,512]]",
                                 R"(["c10::BFloat16","c10::BFloat16","c10::BFloat16"])",
                                 "[[1],[512,1],[1,512]]", R"(["","",""])"),
                       perf::Direction::kBackward)
            .error == perf::ModelError::kNotImplemented);
}

TEST_CASE("GEMM transpose flags come from Tensile or nvjet kernel names only", "[perf_model]") {
  const auto args = [](std::vector<std::string> kernels) {
    return make_args("[[64,32],[32,16]]", R"(["float","float"])", "[[32,1],[16,1]]", R"(["",""])",
                     std::move(kernels));
  };
  CHECK(model_param(
            perf::evaluate("aten::mm", args({"Cijk_B_PostGSU2", "Cijk_Alik_Bljk_BBS_BH_MT16"})),
            "transpose") == "(True, False)");
  CHECK(model_param(perf::evaluate("aten::mm", args({"Cijk_Ailk_Bjlk_HHS"})), "transpose") ==
        "(False, True)");
  CHECK(model_param(perf::evaluate("aten::mm", args({"nvjet_tst_64x64_64x16_2x1_v_bz_bias_TNT"})),
                    "transpose") == "(True, False)");
  CHECK(model_param(perf::evaluate("aten::mm", args({"Cabc_Axyz_Buvw"})), "transpose") ==
        "(None, None)");
  CHECK(model_param(perf::evaluate("aten::mm", args({"void cutlass::Kernel2<x_tn_align8>"})),
                    "transpose") == "<absent>");
}

TEST_CASE("binary elementwise with a Python scalar: owlv2 mul", "[perf_model]") {
  const auto r =
      perf::evaluate("aten::mul", make_args("[[1,5185,4096],[]]", R"(["c10::BFloat16","double"])",
                                            "[[21237760,4096,1],[]]", R"(["",""])"));
  REQUIRE(r.ok());
  const auto m = perf::compute_metrics(r, 0.0, nullptr);
  CHECK(m.gflops == 0.02123776);
  CHECK(*m.data_moved_mb == (21237760.0 * 2 + 8 + 21237760.0 * 2) / 1048576);
  CHECK(std::round(*m.data_moved_mb * 1e6) / 1e6 == 81.015633);
  CHECK(std::isnan(m.tflops_per_s));  // kernel time 0
  CHECK(model_param(r, "dtype_in1_in2_out") == "('c10::BFloat16', 'double', None)");
}

TEST_CASE("layer norm: owlv2 (1,5185,1024) bf16", "[perf_model]") {
  const auto r = perf::evaluate(
      "aten::layer_norm",
      make_args(
          "[[1,5185,1024],[],[1024],[1024],[],[]]",
          R"(["c10::BFloat16","ScalarList","c10::BFloat16","c10::BFloat16","Scalar","Scalar"])",
          "[[5309440,1024,1],[],[1],[1],[],[]]",
          R"(["","[1024]","","","1.0000000000000001e-05","True"])"));
  REQUIRE(r.ok());
  const auto m = perf::compute_metrics(r, 0.0, nullptr);
  CHECK(m.gflops == (5.0 * 5185 * 1024 + 6 * 1024) / 1e9);
  CHECK(std::round(m.gflops * 1e6) / 1e6 == 0.026553);
  CHECK(*m.data_moved_mb == 20.265625);
  CHECK(model_param(r, "num_channels") == "1024");
  CHECK(model_param(r, "output_mask") == "<absent>");
}

TEST_CASE("batch norm backward keeps float flops", "[perf_model]") {
  const auto r = perf::evaluate(
      "aten::native_batch_norm_backward",
      make_args(
          "[[10,64,112,112],[10,64,112,112],[64],[64],[64],[64],[64],[],[],[]]",
          R"(["c10::BFloat16","c10::BFloat16","c10::BFloat16","c10::BFloat16","c10::BFloat16","float","float","Scalar","Scalar","ScalarList"])",
          "[[802816,12544,112,1],[802816,12544,112,1],[1],[1],[1],[1],[1],[],[],[]]",
          R"(["","","","","","","","True","1.0000000000000001e-05","[True, True, True]"])"));
  REQUIRE(r.ok());
  CHECK_FALSE(r.flops.is_int);
  const auto m = perf::compute_metrics(r, 0.0, nullptr);
  CHECK(m.gflops == 0.07225344);
  CHECK(*m.data_moved_mb == 45.93798828125);
  CHECK(model_param(r, "output_mask") == "[True]");
}

TEST_CASE("instance norm backward has no model, whatever its args", "[perf_model]") {
  // TraceLens's class raises NotImplementedError before reading the args: the row is dropped
  // (not kept without metrics), with or without shapes.
  for (const char* name :
       {"aten::instance_norm_backward", "aten::native_instance_norm_backward",
        "aten::miopen_instance_norm_backward", "aten::cudnn_instance_norm_backward"}) {
    INFO(name);
    CHECK(perf::evaluate(name, perf::OpArgs{}).error == perf::ModelError::kNotImplemented);
    CHECK(perf::evaluate(name, make_args("[[4,8,16,16],[8]]", R"(["float","float"])",
                                         "[[2048,256,16,1],[1]]", R"(["",""])"))
              .error == perf::ModelError::kNotImplemented);
  }
}

TEST_CASE("reduce: Kineto's string dims always model a scalar output", "[perf_model]") {
  const auto args =
      make_args("[[10,512,7,7],[],[],[]]", R"(["c10::BFloat16","ScalarList","Scalar",""])",
                "[[25088,49,7,1],[],[],[]]", R"(["","[-1, -2]","True",""])");
  const auto fwd = perf::evaluate("aten::mean", args);
  REQUIRE(fwd.ok());
  CHECK(model_param(fwd, "num_output_elems") == "1");
  CHECK(model_param(fwd, "reduce_type") == "mean");
  const auto bwd = perf::evaluate("aten::mean", args, perf::Direction::kBackward);
  REQUIRE(bwd.ok());
  CHECK(*perf::compute_metrics(bwd, 0.0, nullptr).data_moved_mb == 501762.0 / 1048576);
}

TEST_CASE("metrics: roofline on MI300X", "[perf_model]") {
  perf::ModelResult r;
  r.flops = perf::FormulaNumber::from_int(2000000000);
  r.bytes = perf::FormulaNumber::from_int(1000);
  r.compute_spec = "matrix_bf16";
  const auto arch = loupe::test::mi300x_arch();
  const auto m = perf::compute_metrics(r, 4.0, &arch);
  REQUIRE(m.roofline_time_us);
  CHECK(*m.roofline_time_us == 2000000000.0 / (708 * 1e12) * 1e6);
  CHECK(m.roofline_bound == "COMPUTE_BOUND");
  CHECK(m.pct_roofline == *m.roofline_time_us / 4.0 * 100);
  CHECK(m.flops_per_byte == 2000000.0);
  r.compute_spec = "";  // unknown precision: no roofline
  CHECK_FALSE(perf::compute_metrics(r, 4.0, &arch).roofline_time_us);
  const auto parsed = perf::parse_arch_json(
      R"({"name": "MI300X", "mem_bw_gbps": 5300, "max_achievable_tflops": {"matrix_bf16": 708}})");
  REQUIRE(parsed);
  CHECK(parsed->mem_bw_gbps == 5300);
  CHECK(parsed->max_achievable_tflops.at("matrix_bf16") == 708);
}

TEST_CASE("dtype tables", "[perf_model]") {
  CHECK(perf::bytes_per_element("Scalar") == 4);
  CHECK(perf::bytes_per_element("long int") == 8);
  CHECK(perf::bytes_per_element("c10::bfloat16") == 2);
  CHECK_FALSE(perf::bytes_per_element("bool"));
  CHECK(perf::compute_precision("c10::Float8_e4m3fn") == "fp8");
  CHECK(perf::compute_precision("long int").empty());
  CHECK(perf::compute_precision("c10::Float8_e5m2").empty());
}
