#include "framework.hpp"

#include <array>
#include <string_view>

namespace loupe::fusion {

namespace {

bool has(std::string_view text, std::string_view needle) {
  return text.find(needle) != std::string_view::npos;
}

bool hf_frame(std::string_view frame) {
  if (has(frame, "transformers/")) return true;
  const size_t at = frame.find("modeling_");
  return at != std::string_view::npos && (at == 0 || frame[at - 1] == '/') &&
         has(frame.substr(at), ".py(");
}

std::string plain_code(const std::string& text) {
  std::string out;
  for (const char c : text) out.push_back(c == '`' ? '\'' : c);
  return "`" + out + "`";
}

}  // namespace

FrameworkEvidence detect_framework(const Candidate& c) {
  struct Rule {
    Framework framework;
    std::string_view needle;
  };
  static constexpr std::array<Rule, 8> kRules{{{Framework::Vllm, "vllm/"},
                                               {Framework::Sglang, "sglang/"},
                                               {Framework::Xdit, "xfuser/"},
                                               {Framework::TorchCompile, "torch/_dynamo/"},
                                               {Framework::TorchCompile, "torch/_inductor/"},
                                               {Framework::TorchCompile, "eval_frame.py("},
                                               {Framework::TorchCompile, "compile_fx"},
                                               {Framework::HuggingFace, ""}}};
  std::vector<std::string> frames = c.parent_chain;
  frames.push_back(c.module_name);
  for (const auto& rule : kRules) {
    for (const auto& frame : frames) {
      const bool match =
          rule.framework == Framework::HuggingFace ? hf_frame(frame) : has(frame, rule.needle);
      if (match) return {rule.framework, frame};
    }
  }
  return {};
}

const char* framework_name(Framework f) {
  switch (f) {
    case Framework::PyTorch:
      return "pytorch";
    case Framework::HuggingFace:
      return "huggingface_transformers";
    case Framework::TorchCompile:
      return "torch_compile";
    case Framework::Vllm:
      return "vllm";
    case Framework::Sglang:
      return "sglang";
    case Framework::Xdit:
      return "xdit";
  }
  return "pytorch";
}

std::string framework_action(const FrameworkEvidence& evidence, Pattern pattern) {
  const bool attention = pattern == Pattern::Attention;
  const std::string shown = evidence.frame.empty()
                                ? std::string()
                                : " (the call stack shows " + plain_code(evidence.frame) + ")";
  switch (evidence.framework) {
    case Framework::HuggingFace:
      return attention
                 ? "In Hugging Face `transformers`" + shown +
                       ", load the model with `attn_implementation=\"sdpa\"` (or "
                       "`\"flash_attention_2\"` where the model class supports it) in "
                       "`from_pretrained(...)`; the eager attention path launches these kernels "
                       "one by one."
                 : "In Hugging Face `transformers`" + shown +
                       ", compile the model (`model = torch.compile(model)`) so that Inductor "
                       "generates one kernel for the chain.";
    case Framework::TorchCompile:
      return "The module already runs under `torch.compile`" + shown +
             "; find the graph break that leaves these kernels unfused with "
             "`TORCH_LOGS=graph_breaks`.";
    case Framework::Vllm:
      return attention ? "In vLLM" + shown +
                             ", select a fused attention backend with `VLLM_ATTENTION_BACKEND` "
                             "(`FLASH_ATTN` or `FLASHINFER`)."
                       : "In vLLM" + shown +
                             ", keep the compiled path on (no `--enforce-eager`; "
                             "`compilation_config` level 3) so these kernels are fused.";
    case Framework::Sglang:
      return attention ? "In SGLang" + shown +
                             ", pick a fused attention kernel with `--attention-backend` "
                             "(`flashinfer` or `fa3`)."
                       : "In SGLang" + shown +
                             ", start the server with `--enable-torch-compile` so these kernels "
                             "are fused.";
    case Framework::Xdit:
      return attention
                 ? "In xDiT" + shown +
                       ", run attention through a fused kernel "
                       "(`torch.nn.functional.scaled_dot_product_attention` or flash-attn)."
                 : "In xDiT" + shown + ", enable `--use_torch_compile` so these kernels are fused.";
    case Framework::PyTorch:
      break;
  }
  return attention ? "In PyTorch, call `torch.nn.functional.scaled_dot_product_attention` "
                     "instead of the explicit matmul, softmax and matmul."
                   : "In PyTorch, compile the module (`torch.compile`) so that Inductor "
                     "generates one kernel for the chain.";
}

}  // namespace loupe::fusion
