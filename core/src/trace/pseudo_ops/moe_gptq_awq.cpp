// vLLM's GPTQ/AWQ MoE (pseudo_ops.hpp): under each `vllm::outplace_fused_experts`, the
// `fused_moe_kernel_gptq_awq` kernels get `pseudo_op::moe_gptq_awq_up` (the first by start time,
// gated) or `..._down` above their launch, with top-k from the op's topk_ids shape.
#include <algorithm>

#include "pseudo_op_tree.hpp"

namespace loupe::core::trace::pseudo {

namespace {

constexpr std::int64_t kGptqAwqDefaultTopk = 8;  // TraceLens's fallback

// Input Dims[4] is topk_ids [tokens, topk].
std::int64_t topk_of(const TraceModel& model, Uid op) {
  const auto dims = arg_json(model, op, "Input Dims");
  if (dims.IsArray() && dims.Size() > 4 && dims[4].IsArray() && dims[4].Size() >= 2) {
    if (const auto k = python_int(dims[4][1])) return *k;
  }
  return kGptqAwqDefaultTopk;
}

}  // namespace

RecognizerResult moe_gptq_awq(Context& ctx) {
  const TraceModel& model = ctx.model;
  for (const Uid op : ctx.names.uids(model, "vllm::outplace_fused_experts")) {
    std::vector<Uid> kernels;
    for (const Uid k : ctx.tree.gpu_events(op)) {
      if (model.event(k).category == Category::kKernel &&
          model.name(k).find("fused_moe_kernel_gptq_awq") != std::string_view::npos) {
        kernels.push_back(k);
      }
    }
    if (kernels.empty()) continue;
    const std::int64_t topk = topk_of(model, op);
    const std::int64_t sequence = sequence_or(model, op, op);
    const ShapeArgs shapes = shape_args_of(model, op);
    std::stable_sort(kernels.begin(), kernels.end(),
                     [&model](Uid a, Uid b) { return model.ts_us(a) < model.ts_us(b); });
    for (std::size_t i = 0; i < kernels.size(); ++i) {
      const std::string type = i == 0 ? "up" : "down";
      const ExtraArgs extra = {{"MoE GEMM type", json_string(type)},
                               {"MoE GEMM index", std::to_string(i)},
                               {"MoE GEMM gated", i == 0 ? "true" : "false"},
                               {"MoE topk", std::to_string(topk)}};
      auto error = ctx.above_launcher(kernels[i], "pseudo_op::moe_gptq_awq_" + type, sequence,
                                      shapes, extra);
      if (!error.empty()) return {std::move(error)};
    }
  }
  return {};
}

}  // namespace loupe::core::trace::pseudo
