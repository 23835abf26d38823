#include <catch2/catch.hpp>

#include "conv_category_specific.hpp"
#include "conv_classification.hpp"
#include "conv_corrections.hpp"
#include "conv_library_rules.hpp"
#include "conv_prose.hpp"
#include "loupe/compute/impact.hpp"
#include "loupe/compute/op_fields.hpp"

using loupe::conv::classify_conv;

TEST_CASE("conv: member classification (spec 4.6)") {
  const auto c = [](const char* name, const char* dims) {
    return classify_conv(name, std::string(dims));
  };
  CHECK(classify_conv("aten::conv_transpose2d", std::nullopt) == "Transpose / Deconv");
  CHECK(classify_conv("MyDeconv", std::nullopt) == "Transpose / Deconv");
  CHECK(classify_conv("aten::convolution", std::nullopt) == "Other");
  CHECK(c("aten::convolution", "((8, 64, 56, 56), (64, 64, 3, 3), (), ())") == "Standard 2D");
  CHECK(c("aten::convolution", "((16, 1024, 14, 14), (2048, 1024, 1, 1))") == "Pointwise 1x1");
  CHECK(c("aten::convolution", "((4, 3, 224, 224), (768, 3, 16, 16), (768,))") == "Large kernel");
  CHECK(c("aten::convolution", "((2, 256, 56, 56), (512, 256, 1, 7))") == "Large kernel");
  CHECK(c("aten::convolution", "((8, 1024, 32, 32), (1024, 1, 3, 3))") == "Depthwise");
  CHECK(c("aten::convolution", "((16, 256, 1024), (512, 256, 5))") == "1D");
  CHECK(c("aten::convolution", "((2, 16, 8, 32, 32), (32, 16, 3, 3, 3))") == "3D");
  CHECK(c("aten::convolution", "((8, 64), (64, 64))") == "Other");
  CHECK(c("aten::convolution", "not a tuple") == "Other");
  CHECK(c("aten::convolution_backward",
          "((10, 256, 14, 14), (10, 128, 28, 28), (256, 128, 1, 1), ())") == "Pointwise 1x1");
  // A single-channel input is not depthwise.
  CHECK(c("aten::convolution", "((1, 1, 8, 8), (4, 1, 3, 3))") == "Standard 2D");
}

TEST_CASE("conv: transpose-overhead bands and layout-transform kernels") {
  CHECK(loupe::conv::transpose_band(51.2) == "high");
  CHECK(loupe::conv::transpose_band(20.0) == "moderate");
  CHECK(loupe::conv::transpose_band(10.0) == "moderate");
  CHECK(loupe::conv::transpose_band(9.99) == "acceptable");
  CHECK(loupe::conv::is_layout_transform_kernel("batched_transpose_32x16_half"));
  CHECK(loupe::conv::is_layout_transform_kernel(
      "void cudnn::engines_precompiled::nchwToNhwcKernel<float>"));
  CHECK(loupe::conv::is_layout_transform_kernel("nhwc2nchw_kernel"));
  CHECK_FALSE(loupe::conv::is_layout_transform_kernel("SubTensorOpWithScalar1d"));
  CHECK_FALSE(loupe::conv::is_layout_transform_kernel("igemm_fwd_gtcx3_nhwc_bf16"));
}

TEST_CASE("conv: DNN-library detection of conv kernels (I-6)") {
  const auto& rules = loupe::conv::conv_library_rules();
  const auto lib = [&](const char* kd) {
    return loupe::compute::classify_library("aten::convolution", kd, rules).value_or("null");
  };
  // Falconsai: the bias-add kernel no longer names the library.
  CHECK(lib("[{'name': 'batched_transpose_32x16_half', 'total_duration_us': 3.7}, "
            "{'name': 'void at::native::elementwise_kernel_manual_unroll<128>', "
            "'total_duration_us': 6.8}, {'name': 'igemm_fwd_gtcx3_nhwc_bf16', "
            "'total_duration_us': 30.1}]") == "MIOpen");
  CHECK(lib("[{'name': '_ZN2ck16tensor_operation6device', 'total_duration_us': 50.0}, "
            "{'name': 'igemm_bwd_gtcx3', 'total_duration_us': 20.0}]") == "CK");
  CHECK(lib("[{'name': 'void cudnn::engines_precompiled::nchwToNhwcKernel', "
            "'total_duration_us': 5.0}, {'name': 'sm90_xmma_fprop_implicit_gemm_bf16', "
            "'total_duration_us': 90.0}]") == "cuDNN");
  CHECK(lib("[{'name': 'Im2d2Col_v2', 'total_duration_us': 10.0}, {'name': 'Cijk_Ailk_Bljk', "
            "'total_duration_us': 90.0}]") == "Tensile");
  CHECK(lib("[{'name': 'batched_transpose_32x16_half', 'total_duration_us': 3.7}]") == "MIOpen");
  CHECK(lib("[{'name': 'depthwise_conv2d_fwd_fp32_kernel', 'total_duration_us': 350.0}]") ==
        "null");
}

TEST_CASE("conv C2: one finding per problem across libraries") {
  using loupe::Json;
  const auto estimate = [](const char* library, double mid, double eff) {
    Json e = Json::object();
    e["operation"] = "aten::convolution";
    e["category"] = "conv_fwd";
    e["type"] = "kernel_tuning";
    e["estimate_method"] = "quantified";
    e["impact_score"] = mid;
    e["impact_score_low"] = mid * 0.8;
    e["impact_score_high"] = mid * 1.2;
    e["efficiency_pct"] = eff;
    e["bound_type"] = "compute";
    e["library"] = library;
    e["time_ms"] = 1.0;
    return e;
  };
  Json estimates = Json::array();
  estimates.push_back(estimate("MIOpen", 0.4, 6.0));
  estimates.push_back(estimate("CK", 0.3, 7.0));
  estimates.push_back(estimate("MIOpen", 0.2, 45.0));  // another bucket: another problem
  // Split by library, no group reaches the 0.5 gate; together they are one finding.
  CHECK(loupe::compute::build_category_findings(estimates, false).size() == 0);
  const Json findings = loupe::conv::findings_across_libraries(estimates);
  REQUIRE(findings.size() == 1);
  const Json& f = findings.as_array()[0];
  CHECK(f.find("library")->as_string() == "MIOpen + CK");
  CHECK(f.find("libraries")->size() == 2);
  CHECK(f.find("member_count")->as_int() == 2);
  CHECK(f.find("impact_score")->as_double() == 0.7);
  // Members keep their own library (the findings builder joins them to operations by it).
  CHECK(f.find("members")->as_array()[1].find("library")->as_string() == "CK");
}

TEST_CASE("conv C2: an unmodeled op stays its own finding and lists its library") {
  using loupe::Json;
  Json e = Json::object();
  e["operation"] = "aten::convolution";
  e["category"] = "conv_fwd";
  e["type"] = "unmodeled_significant";
  e["estimate_method"] = "heuristic";
  e["impact_score"] = 0.9;
  e["impact_score_low"] = 0.45;
  e["impact_score_high"] = 1.35;
  e["efficiency_pct"] = nullptr;
  e["bound_type"] = nullptr;
  e["library"] = "cuDNN";
  e["time_ms"] = 3.0;
  e["percent_of_total"] = 3.0;
  Json estimates = Json::array();
  estimates.push_back(e);
  const Json findings = loupe::conv::findings_across_libraries(estimates);
  REQUIRE(findings.size() == 1);
  const Json& f = findings.as_array()[0];
  CHECK(f.find("estimate_method")->as_string() == "heuristic");
  CHECK(f.find("libraries")->as_array()[0].as_string() == "cuDNN");
}
