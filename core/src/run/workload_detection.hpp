// Whether a trace is training or inference, from what the analysis directory shows: a serving
// engine in the call stacks (SGLang, vLLM, xDiT, TGI, TensorRT-LLM, LMDeploy) means inference;
// backward ops mean training; ops without any backward op mean inference. The evidence is kept
// as a sentence for the log, loupe_run.json and the plugins (model property
// "workload_evidence"). docs/architecture.md, "Workload".
#pragma once

#include <string>

#include "loupe/core/model/model.hpp"
#include "loupe/plugin.hpp"

namespace loupe::core {

struct WorkloadDetection {
  Workload workload = Workload::Unknown;
  std::string evidence;  // e.g. "call stacks show the serving engine SGLang (sglang/srt/...)"
};

WorkloadDetection detect_workload(const Model& model);

}  // namespace loupe::core
