// Default mode F1 (docs/deviations.md): the framework a candidate's call stack shows and the
// switch its card names.
#include <catch2/catch.hpp>

#include "framework.hpp"

using namespace loupe::fusion;

namespace {

Candidate with_chain(std::vector<std::string> chain) {
  Candidate c;
  c.module_name = "nn.Module: SelfAttention_0";
  c.parent_chain = std::move(chain);
  return c;
}

}  // namespace

TEST_CASE("fusion F1: the framework comes from the call stack", "[fusion]") {
  CHECK(detect_framework(
            with_chain({"modeling_owlv2.py(518): forward", "module.py(1743): _call_impl"}))
            .framework == Framework::HuggingFace);
  CHECK(
      detect_framework(with_chain({"transformers/models/qwen2/modeling_qwen2.py(68): f"})).frame ==
      "transformers/models/qwen2/modeling_qwen2.py(68): f");
  // An engine wins over the model code it runs.
  CHECK(detect_framework(with_chain({"modeling_llama.py(10): forward",
                                     "vllm/model_executor/models/llama.py(200): forward"}))
            .framework == Framework::Vllm);
  CHECK(detect_framework(with_chain({"sglang/srt/layers/radix_attention.py(50): forward"}))
            .framework == Framework::Sglang);
  CHECK(detect_framework(with_chain({"torch/_dynamo/eval_frame.py(600): _fn"})).framework ==
        Framework::TorchCompile);
  // "my_modeling_x.py" is not a transformers file.
  CHECK(detect_framework(with_chain({"my_modeling_x.py(3): forward", "train.py(9): main"}))
            .framework == Framework::PyTorch);
}

TEST_CASE("fusion F1: the action names the framework's switch", "[fusion]") {
  const FrameworkEvidence hf{Framework::HuggingFace, "modeling_owlv2.py(518): forward"};
  const std::string a = framework_action(hf, Pattern::Attention);
  CHECK(a.find("attn_implementation=\"sdpa\"") != std::string::npos);
  CHECK(a.find("`modeling_owlv2.py(518): forward`") != std::string::npos);
  CHECK(framework_action(hf, Pattern::RMSNorm).find("torch.compile(model)") != std::string::npos);
  CHECK(framework_action({Framework::Vllm, "vllm/x.py(1): f"}, Pattern::Attention)
            .find("VLLM_ATTENTION_BACKEND") != std::string::npos);
  CHECK(framework_action({Framework::Sglang, "sglang/x.py(1): f"}, Pattern::ElementwiseChain)
            .find("--enable-torch-compile") != std::string::npos);
  CHECK(framework_action({}, Pattern::Attention).find("scaled_dot_product_attention") !=
        std::string::npos);
}
