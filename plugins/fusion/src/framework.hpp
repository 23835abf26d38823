// The framework a candidate's call stack shows, and the concrete switch that fuses its
// kernels in that framework (default mode, docs/deviations.md fusion "F1").
#pragma once

#include <string>

#include "candidate.hpp"
#include "patterns.hpp"

namespace loupe::fusion {

enum class Framework { PyTorch, HuggingFace, TorchCompile, Vllm, Sglang, Xdit };

struct FrameworkEvidence {
  Framework framework = Framework::PyTorch;
  std::string frame;  // the call-stack frame that shows it ("" for plain PyTorch)
};

// From the parent chain (and module name): vLLM / SGLang / xDiT first, then torch.compile,
// then Hugging Face transformers (a modeling_*.py or transformers/ frame), else PyTorch.
FrameworkEvidence detect_framework(const Candidate& c);

const char* framework_name(Framework f);

// One sentence naming the switch for this framework and pattern.
std::string framework_action(const FrameworkEvidence& evidence, Pattern pattern);

}  // namespace loupe::fusion
