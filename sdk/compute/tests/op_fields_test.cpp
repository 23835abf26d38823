#include <catch2/catch.hpp>

#include "loupe/compute/op_fields.hpp"

using namespace loupe::compute;

namespace {
std::string lib(const std::string& op, const std::string& kernels) {
  return classify_library_tracelens(op, kernels).value_or("null");
}
}  // namespace

TEST_CASE("compute: TraceLens library rules (spec TC-16)") {
  CHECK(lib("aten::convolution", "") == "null");
  CHECK(lib("aten::miopen_convolution", "") == "MIOpen");
  CHECK(lib("aten::cudnn_convolution", "Cijk_Alik") == "Tensile");
  CHECK(lib("aten::convolution", "igemm_fwd_gtcx3_nhwc_bf16") == "null");
  CHECK(lib("aten::convolution",
            "batched_transpose_32x16 void at::native::elementwise_kernel<128>") ==
        "PyTorch Native");
  CHECK(lib("aten::convolution", "void at::native::x Cijk_Ailk_Bljk") == "Tensile");
  CHECK(lib("aten::convolution", "_ZN2ck16tensor_operation_grouped_conv_fwd") == "null");
  CHECK(lib("aten::convolution", "ck_tile::kentry<conv>") == "CK");
  CHECK(lib("aten::convolution", "triton_poi_fused_convolution_0") == "Triton");
  CHECK(lib("aten::convolution", "AITER_conv") == "null");
  CHECK(lib("aten::convolution", "my_aiter_conv") == "AITER");
  CHECK(lib("Triton_Conv", "") == "Triton");
  CHECK(lib("aten::convolution_backward", "rocprim::detail::x Cijk_") == "Tensile");
}

TEST_CASE("compute: corrected library detection takes the longest main kernel") {
  const std::string kd =
      "[{'name': 'void at::native::elementwise_kernel<128>', 'total_duration_us': 9.0},"
      " {'name': 'void cutlass::Kernel<x>', 'total_duration_us': 3.0},"
      " {'name': 'Cijk_Ailk_Bljk_BBS', 'total_duration_us': 5.0}]";
  CHECK(classify_library("aten::mm", kd, {}).value_or("null") == "Tensile");
  const std::string helper_only = "[{'name': 'void at::native::add', 'total_duration_us': 1.0}]";
  CHECK(classify_library("aten::mm", helper_only, {}).value_or("null") == "PyTorch Native");
  CHECK(classify_library("aten::mm", "[{'name': 'mystery', 'total_duration_us': 1.0}]", {})
            .value_or("null") == "null");
  const std::vector<LibraryRule> rules{{"mykern", "MyLib", false}};
  CHECK(classify_library("aten::mm", "[{'name': 'mykern_a', 'total_duration_us': 1.0}]", rules)
            .value_or("null") == "MyLib");
  CHECK(classify_library("fbgemm::op", "", rules).value_or("null") == "FBGEMM");
}

TEST_CASE("compute: format_args (spec TC-17)") {
  const auto args = [](const char* d, const char* t) {
    return format_args(std::string(d), std::string(t), false).value_or("null");
  };
  CHECK(args("((8, 64, 56, 56), (64, 64, 3, 3), (), (), (), (), (), (), ())",
             "('c10::Half','c10::Half','','ScalarList','ScalarList','ScalarList','Scalar',"
             "'ScalarList','Scalar')") ==
        "(8,64,56,56) fp16<br>(64,64,3,3) fp16<br>() ScalarList<br>() ScalarList<br>() "
        "ScalarList<br>() ScalarList");
  CHECK(args("((2, 16, 8, 8, 8), (32, 16, 3, 3, 3))", "('double','double')") ==
        "(2,16,8,8,8) fp64<br>(32,16,3,3,3) fp64");
  CHECK(args("((4, 8, 16), (8, 8, 3))", "('c10::Float8_e4m3fnuz','unsigned char')") ==
        "(4,8,16) fp8<br>(8,8,3) fp8");
  CHECK(args("((128,), (3,))", "('long int','int')") == "(128,) long int<br>(3,) int");
  CHECK(args("((), ())", "('Scalar','')") == "null");
  CHECK(args("((4, 4),)", "('c10::BFloat16','extra')") == "(4,4) bf16");
  CHECK(args("not a tuple", "('Float',)") == "null");
  CHECK(args("[[8, 3, 32, 32], [16, 3, 3, 3], [], [], []]",
             "['Float','Float','TensorList','GenericList','None']") ==
        "(8,3,32,32) fp32<br>(16,3,3,3) fp32<br>() TensorList<br>() GenericList<br>() None");
  CHECK_FALSE(format_args(std::nullopt, std::string("('Float',)"), false));
  // Corrected mode (I-5): no empty non-tensor slots.
  CHECK(format_args(std::string("((8, 64, 56, 56), (64, 64, 3, 3), (), ())"),
                    std::string("('c10::Half','c10::Half','','ScalarList')"), true)
            .value_or("null") == "(8,64,56,56) fp16<br>(64,64,3,3) fp16");
  CHECK(format_args(std::string("((768,), ())"), std::string("('c10::BFloat16','Scalar')"), true)
            .value_or("null") == "(768,) bf16");
}

TEST_CASE("compute: kernel names, call chain, module chain (spec TC-18)") {
  CHECK(extract_kernel_names("['aten::convolution', 'k1']") ==
        std::pair<std::string, std::string>{"k1", "k1"});
  const auto several = extract_kernel_names("['a', ['x', 'k1'], ['k2'], ['y', 'k1']]");
  CHECK(several.first == "Kernel 1: k1<br>Kernel 2: k2<br>Kernel 3: k1");
  CHECK(several.second == several.first);
  const std::string n76(76, 'k');
  const std::string n75(75, 'k');
  CHECK(extract_kernel_names("['" + n76 + "']").second == n75 + "...");
  CHECK(extract_kernel_names("['" + n75 + "']").second == n75);
  for (const char* empty : {"Not found", "nan", "", "[]", "['a', 5]"}) {
    CHECK(extract_kernel_names(empty).first.empty());
  }
  CHECK(extract_kernel_names("[['k']]").first == "k");

  const std::string stack =
      "['multiprocessing/spawn.py(122): spawn_main', 'nn.Module: ViTModel_0', "
      "'torch/nn/modules/module.py(1755): _call_impl', 'torch/_dynamo/eval_frame.py(738): _fn', "
      "'torch/_functorch/x.py(1): y', 'torch/autograd/function.py(575): apply', 'plainframe', "
      "'nn.Module:NoSpace', 'aten::conv2d', 'foo.pyx(3): bar', ['k1'], ['aten::add_', 'k2']]";
  CHECK(extract_call_chain(stack) == std::vector<std::string>{"nn.Module: ViTModel_0",
                                                              "nn.Module:NoSpace", "aten::conv2d",
                                                              "foo.pyx(3): bar"});
  CHECK(extract_module_chain(stack) == std::vector<std::string>{"ViTModel_0"});
}

TEST_CASE("compute: fusion map match (spec TC-18)") {
  const std::vector<std::pair<std::string, std::string>> map{{"Cijk_ABC_long_name_suffix", "candA"},
                                                             {"batched", "candB"}};
  const auto match = [&](const char* kd) {
    return match_fusion_candidate(kd, map).value_or("null");
  };
  CHECK(match("[{'name': 'Cijk_ABC_long'}]") == "candA");
  CHECK(match("[{'name': 'batched_transpose_32x16_half'}]") == "candB");
  CHECK(match("[{'name': 'zzz'}, {'name': 'Cijk_ABC_long_name_suffix'}]") == "candA");
  CHECK(match("[{'name':'Cijk_ABC_long_name_suffix'}]") == "candA");
  CHECK(match("[{\"name\": \"Cijk_ABC_long_name_suffix\"}]") == "null");
  CHECK(match("[{'name': 'nomatch'}]") == "null");
}

TEST_CASE("compute: dtype precision map") {
  CHECK(torch_dtype_precision("c10::BFloat16") == "bf16");
  CHECK(torch_dtype_precision("Float") == "fp32");
  CHECK_FALSE(torch_dtype_precision("c10::Float8_e5m2"));
  CHECK_FALSE(torch_dtype_precision("BFloat16"));
}
