// The §3.6.4 rules on hand-made stacks: frame filter, name normalisation, merging of kernel
// chains into call_stack_full, its repr, and the entry-point search.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "loupe/core/prepare/call_stack.hpp"
#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/json_reader.hpp"

namespace lp = loupe::core::prepare;
namespace lt = loupe::core::trace;
using loupe::core::trace::Category;
using Stack = std::vector<std::string>;

TEST_CASE("frame filter keeps nn.Module, scoped, path-like names and every cpu_op",
          "[prepare][call_stack]") {
  CHECK(lp::is_call_stack_frame("nn.Module: Linear_0", Category::kPythonFunction));
  CHECK(lp::is_call_stack_frame("torch/nn/modules/linear.py(124): forward",
                                Category::kPythonFunction));
  CHECK(lp::is_call_stack_frame("vllm::unified_attention_with_output", Category::kCpuOp));
  CHECK(lp::is_call_stack_frame("_C_cache_ops::reshape_and_cache_flash", Category::kCpuOp));
  // cpu_ops pass whatever their name (autograd node names have no "::").
  CHECK(lp::is_call_stack_frame("ConvolutionBackward0", Category::kCpuOp));
  // Built-in frames have no path and no scope; runtime calls fail the filter.
  CHECK_FALSE(lp::is_call_stack_frame("<built-in method view of Tensor object at 0x7ce2>",
                                      Category::kPythonFunction));
  CHECK_FALSE(lp::is_call_stack_frame("threading.py(1012): run", Category::kPythonFunction));
  CHECK_FALSE(lp::is_call_stack_frame("cudaLaunchKernel", Category::kCudaRuntime));
  CHECK_FALSE(lp::is_call_stack_frame("hipExtModuleLaunchKernel", Category::kCudaRuntime));
}

TEST_CASE("normalisation removes every _<digits> run", "[prepare][call_stack]") {
  CHECK(lp::normalize_frame_name("nn.Module: BertLMHeadModel_0") == "nn.Module: BertLMHeadModel");
  CHECK(lp::normalize_frame_name("nn.Module: LayerNorm_49") == "nn.Module: LayerNorm");
  CHECK(lp::normalize_frame_name("triton_poi_fused_add_0") == "triton_poi_fused_add");
  CHECK(lp::normalize_frame_name("a_12_b_3c") == "a_bc");  // not only a suffix
  CHECK(lp::normalize_frame_name("torch/nn/modules/module.py(1743): _call_impl") ==
        "torch/nn/modules/module.py(1743): _call_impl");
  CHECK(lp::normalize_frame_name("x__1") == "x_");  // the run starts at the last '_'
  CHECK(lp::normalize_frame_name("fp8_e4m3") == "fp8_e4m3");
  CHECK(lp::normalize_frame_name("_") == "_");
  CHECK(lp::normalize_frame_name("aten::_foreach_add_") == "aten::_foreach_add_");
}

TEST_CASE("one kernel prints its chain flat", "[prepare][call_stack]") {
  const std::vector<Stack> chains = {{"nn.Module: Linear", "aten::linear", "aten::addmm", "k"}};
  const auto merged = lp::merge_call_stacks(chains);
  CHECK(merged.tails.empty());
  CHECK(lp::call_stack_full_repr(merged) ==
        "['nn.Module: Linear', 'aten::linear', 'aten::addmm', 'k']");
}

TEST_CASE("several kernels: common prefix flat, then distinct tails in first-seen order",
          "[prepare][call_stack]") {
  // Shape of h100 falconsai's aten::convolution: the summary (sorted by total time) lists
  // Memset, a transpose, a second Memset, the bias add, ...; the second Memset's tail equals
  // the first and is dropped.
  const std::vector<Stack> chains = {
      {"a", "aten::convolution", "aten::_convolution", "aten::cudnn_convolution", "Memset"},
      {"a", "aten::convolution", "aten::_convolution", "aten::cudnn_convolution", "t1"},
      {"a", "aten::convolution", "aten::_convolution", "aten::cudnn_convolution", "Memset"},
      {"a", "aten::convolution", "aten::_convolution", "aten::add_", "add"},
      {"a", "aten::convolution", "aten::_convolution", "aten::cudnn_convolution", "gemm"},
  };
  const auto merged = lp::merge_call_stacks(chains);
  CHECK(merged.common == Stack{"a", "aten::convolution", "aten::_convolution"});
  REQUIRE(merged.tails.size() == 4);
  CHECK(lp::call_stack_full_repr(merged) ==
        "['a', 'aten::convolution', 'aten::_convolution', ['aten::cudnn_convolution', "
        "'Memset'], ['aten::cudnn_convolution', 't1'], ['aten::add_', 'add'], "
        "['aten::cudnn_convolution', 'gemm']]");
  CHECK(lp::flatten(merged) == Stack{"a", "aten::convolution", "aten::_convolution",
                                     "aten::cudnn_convolution", "Memset", "aten::cudnn_convolution",
                                     "t1", "aten::add_", "add", "aten::cudnn_convolution", "gemm"});
}

TEST_CASE("tails may be bare kernel names; equal chains leave one empty tail",
          "[prepare][call_stack]") {
  const std::vector<Stack> chains = {{"p", "k1"}, {"p", "k2"}, {"p", "k1"}};
  CHECK(lp::call_stack_full_repr(lp::merge_call_stacks(chains)) == "['p', ['k1'], ['k2']]");
  const std::vector<Stack> same = {{"p", "k"}, {"p", "k"}};
  CHECK(lp::call_stack_full_repr(lp::merge_call_stacks(same)) == "['p', 'k', []]");
  CHECK(lp::call_stack_full_repr(lp::merge_call_stacks(std::vector<Stack>{})) == "[]");
}

TEST_CASE("frames print as Python string reprs", "[prepare][call_stack]") {
  const std::vector<Stack> chains = {
      {"it's", "say \"hi\"", "both ' and \"", "back\\slash", "tab\there"}};
  CHECK(lp::call_stack_full_repr(lp::merge_call_stacks(chains)) ==
        "[\"it's\", 'say \"hi\"', 'both \\' and \"', 'back\\\\slash', 'tab\\there']");
}

TEST_CASE("wrapper frames", "[prepare][call_stack]") {
  CHECK(lp::is_wrapper_frame("<built-in function linear>"));
  CHECK(lp::is_wrapper_frame("pybind11_builtins.py(1): x"));
  CHECK(lp::is_wrapper_frame("nn.Module: Linear"));
  CHECK(lp::is_wrapper_frame("torch/nn/modules/module.py(1743): _call_impl"));
  CHECK(lp::is_wrapper_frame("torch/_ops.py(1244): __call__"));
  CHECK(lp::is_wrapper_frame("site/torch/_inductor/x.py(3): run"));
  CHECK(lp::is_wrapper_frame("moca/shared/maybe/_decorator.py(90): wrapper"));
  CHECK(lp::is_wrapper_frame("vllm/attention/utils/kv_transfer_utils.py(36): wrapper"));
  CHECK_FALSE(lp::is_wrapper_frame("torch/nn/modules/linear.py(124): forward"));
  CHECK_FALSE(lp::is_wrapper_frame("x.py(1): my_wrapper"));  // function name compared whole
  CHECK_FALSE(lp::is_wrapper_frame("wrapper"));              // no "): " -> no function part
}

TEST_CASE("entry point: inward match on the op's local name", "[prepare][call_stack]") {
  // b200 vllm::unified_attention_with_output: the matching frame sits below the op.
  const Stack flat = {"vllm/attention/layer.py(290): forward",
                      "torch/_ops.py(1244): __call__",
                      "vllm::unified_attention_with_output",
                      "vllm/attention/utils/kv_transfer_utils.py(36): wrapper",
                      "vllm/attention/layer.py(852): unified_attention_with_output",
                      "vllm/v1/attention/backends/flashinfer.py(1064): forward",
                      "kernel"};
  CHECK(lp::find_entry_point(flat, "vllm::unified_attention_with_output") ==
        "vllm/attention/layer.py(852): unified_attention_with_output");
  // Lower-cased comparison of the function part only.
  const Stack cased = {"aten::Foo", "pkg/foo.py(1): Run_FOO_fast"};
  CHECK(lp::find_entry_point(cased, "aten::Foo") == "pkg/foo.py(1): Run_FOO_fast");
}

TEST_CASE("entry point: outward to the first non-wrapper .py frame", "[prepare][call_stack]") {
  const Stack flat = {"transformers/models/bert/modeling_bert.py(364): forward",
                      "nn.Module: Linear",
                      "torch/nn/modules/module.py(1743): _call_impl",
                      "torch/nn/modules/linear.py(124): forward",
                      "aten::linear",
                      "aten::addmm",
                      "kernel"};
  CHECK(lp::find_entry_point(flat, "aten::addmm") == "torch/nn/modules/linear.py(124): forward");
  // Frames without ".py" are skipped on the way out.
  const Stack no_py = {"app/main.py(3): run", "aten::linear", "aten::addmm", "k"};
  CHECK(lp::find_entry_point(no_py, "aten::addmm") == "app/main.py(3): run");
}

TEST_CASE("entry point: op located by its last occurrence, else without _<digits>",
          "[prepare][call_stack]") {
  const Stack twice = {"a/x.py(1): outer", "aten::copy_", "b/y.py(2): inner", "aten::copy_", "k"};
  CHECK(lp::find_entry_point(twice, "aten::copy_") == "b/y.py(2): inner");
  const Stack normalised = {"m/model.py(9): forward", "sglang_profiler::foo_triton", "k"};
  CHECK(lp::find_entry_point(normalised, "sglang_profiler::foo_triton_340") ==
        "m/model.py(9): forward");
}

TEST_CASE("entry point: Not found", "[prepare][call_stack]") {
  const Stack cpu_only = {"aten::linear", "aten::addmm", "k"};
  CHECK(lp::find_entry_point(cpu_only, "aten::addmm") == "Not found");
  CHECK(lp::find_entry_point(cpu_only, "aten::mm") == "Not found");
  const Stack wrappers_only = {"torch/nn/modules/module.py(1743): _call_impl", "aten::addmm"};
  CHECK(lp::find_entry_point(wrappers_only, "aten::addmm") == "Not found");
  CHECK(lp::find_entry_point(Stack{"k"}, "aten::index->k (Synthetic Op)") == "Not found");
}

namespace {

// Thread 1: nn.Module frame > forward frame (a "_3" in its path) > built-in frame >
// aten::linear > aten::addmm > cudaLaunchKernel -> gemm_kernel.
// Thread 2 (no python): a runtime call with a scoped name encloses the cpu_op root aten::mm.
constexpr std::string_view kTrace = R"({"traceEvents":[
{"ph":"X","cat":"python_function","name":"nn.Module: Net_0","pid":1,"tid":1,"ts":0,"dur":100},
{"ph":"X","cat":"python_function","name":"app/model_3.py(10): forward","pid":1,"tid":1,"ts":1,"dur":98},
{"ph":"X","cat":"python_function","name":"<built-in function linear>","pid":1,"tid":1,"ts":2,"dur":90},
{"ph":"X","cat":"cpu_op","name":"aten::linear","pid":1,"tid":1,"ts":3,"dur":80,"args":{"External id":1}},
{"ph":"X","cat":"cpu_op","name":"aten::addmm","pid":1,"tid":1,"ts":4,"dur":70,"args":{"External id":2}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":5,"dur":5,"args":{"correlation":1,"External id":2}},
{"ph":"X","cat":"kernel","name":"gemm_kernel","pid":0,"tid":7,"ts":200,"dur":10,"args":{"correlation":1,"stream":7}},
{"ph":"s","cat":"ac2g","name":"ac2g","id":1,"pid":1,"tid":1,"ts":5},
{"ph":"f","cat":"ac2g","name":"ac2g","id":1,"pid":0,"tid":7,"ts":200,"bp":"e"},
{"ph":"X","cat":"cuda_runtime","name":"ns::outer_call","pid":1,"tid":2,"ts":0,"dur":100,"args":{"correlation":9}},
{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":2,"ts":1,"dur":50,"args":{"External id":3}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":2,"ts":2,"dur":5,"args":{"correlation":2,"External id":3}},
{"ph":"X","cat":"kernel","name":"mm_kernel","pid":0,"tid":7,"ts":300,"dur":10,"args":{"correlation":2,"stream":7}},
{"ph":"s","cat":"ac2g","name":"ac2g","id":2,"pid":1,"tid":2,"ts":2},
{"ph":"f","cat":"ac2g","name":"ac2g","id":2,"pid":0,"tid":7,"ts":300,"bp":"e"}]})";

constexpr lt::Uid kLinear = 3, kAddmm = 4, kGemm = 6, kOuter = 9, kMm = 10, kMmKernel = 12;

}  // namespace

TEST_CASE("stacks of collected nodes and their kernels on a small tree", "[prepare][call_stack]") {
  auto loaded = lt::load_trace_bytes(std::string(kTrace));
  REQUIRE_FALSE(loaded.error.has_value());
  lt::TreeOptions options;
  options.add_python_func = true;
  options.time_mode = lt::TimeMode::kTraceLensCompat;
  const auto tree = lt::EventTree::build(loaded.model, options);
  REQUIRE(tree.parent(kGemm) != lt::kNoUid);
  REQUIRE(tree.parent(kMm) == kOuter);

  // Path from the python root; the built-in frame fails the filter; "_3" is dropped from the
  // path too.
  const Stack linear_stack = {"nn.Module: Net", "app/model.py(10): forward", "aten::linear"};
  CHECK(lp::node_call_stack(loaded.model, tree, kLinear) == linear_stack);
  CHECK(lp::frames_below(loaded.model, tree, kLinear, kGemm) == Stack{"aten::addmm"});
  CHECK(lp::frames_below(loaded.model, tree, kAddmm, kGemm).empty());  // only the runtime call
  // Not an ancestor (as a pseudo op above a launch is): TraceLens's walk runs to the root.
  CHECK(lp::frames_below(loaded.model, tree, kMm, kGemm) ==
        Stack{"nn.Module: Net", "app/model.py(10): forward", "aten::linear", "aten::addmm"});
  CHECK(lp::kernel_call_stack(loaded.model, tree, kLinear, linear_stack, kGemm) ==
        Stack{"nn.Module: Net", "app/model.py(10): forward", "aten::linear", "aten::addmm"});

  const std::vector<lt::Uid> kernels = {kGemm};
  const auto linear = lp::call_stack_columns(loaded.model, tree, kLinear, kernels, "aten::linear");
  CHECK(linear.call_stack_full ==
        "['nn.Module: Net', 'app/model.py(10): forward', 'aten::linear', 'aten::addmm', "
        "'gemm_kernel']");
  CHECK(linear.entry_point == "app/model.py(10): forward");

  // A cpu_op root without python ancestors is a traversal root of its own: the runtime call
  // enclosing it never enters the stack although its name passes the filter.
  CHECK(lp::node_call_stack(loaded.model, tree, kMm) == Stack{"aten::mm"});
  const std::vector<lt::Uid> mm_kernels = {kMmKernel};
  const auto mm = lp::call_stack_columns(loaded.model, tree, kMm, mm_kernels, "aten::mm");
  CHECK(mm.call_stack_full == "['aten::mm', 'mm_kernel']");
  CHECK(mm.entry_point == "Not found");

  CHECK(lp::call_stack_columns(loaded.model, tree, kMm, {}, "aten::mm").call_stack_full ==
        "Not found");
  const auto synthetic = lp::synthetic_call_stack_columns(loaded.model, mm_kernels,
                                                          "aten::mm->mm_kernel (Synthetic Op)");
  CHECK(synthetic.call_stack_full == "['mm_kernel']");
  CHECK(synthetic.entry_point == "Not found");
}
