// vLLM's AITER fused MoE (pseudo_ops.hpp): under each `vllm::rocm_aiter_fused_moe` that runs no
// cpu op of its own, the single fused MoE kernel (`aiter::` + `fmoe`, not the sorting or
// quantization kernels) gets `pseudo_op::moe_aiter_fused_1stage` above its launch, so the
// fused-MoE model sees that kernel alone.
#include "pseudo_op_tree.hpp"

namespace loupe::core::trace::pseudo {

namespace {

bool has_cpu_op_below(const TraceModel& model, const EventTree& tree, Uid uid) {
  for (const Uid c : tree.children(uid)) {
    if (model.event(c).category == Category::kCpuOp) return true;
    if (!tree.non_gpu_path(c) && has_cpu_op_below(model, tree, c)) return true;
  }
  return false;
}

bool is_fused_moe_kernel(const TraceModel& model, Uid k) {
  if (model.event(k).category != Category::kKernel) return false;
  const std::string_view name = model.name(k);
  return name.find("aiter::") != std::string_view::npos &&
         name.find("fmoe") != std::string_view::npos &&
         name.find("MoeSorting") == std::string_view::npos && !contains_lower(name, "quant");
}

}  // namespace

RecognizerResult moe_aiter_fused(Context& ctx) {
  for (const Uid op : ctx.names.uids(ctx.model, "vllm::rocm_aiter_fused_moe")) {
    if (has_cpu_op_below(ctx.model, ctx.tree, op)) continue;
    std::vector<Uid> kernels;
    for (const Uid k : ctx.tree.gpu_events(op)) {
      if (is_fused_moe_kernel(ctx.model, k)) kernels.push_back(k);
    }
    if (kernels.size() != 1) continue;
    auto error =
        ctx.above_launcher(kernels[0], "pseudo_op::moe_aiter_fused_1stage",
                           sequence_or(ctx.model, op, op), shape_args_of(ctx.model, op), {});
    if (!error.empty()) return {std::move(error)};
  }
  return {};
}

}  // namespace loupe::core::trace::pseudo
