// vLLM's GPT-OSS MoE on triton_kernels (pseudo_ops.hpp): under each `vllm::moe_forward`, every
// `matmul_ogs` kernel gets `pseudo_op::moe_triton_unfused_up` (the first by start time) or
// `..._down` above its launch, with the router's top-k and whether the kernel fuses a gated
// activation; a single `matmul_scatter` kernel gets `..._finalize_matmul_scatter`.
#include <algorithm>

#include "pseudo_op_tree.hpp"

namespace loupe::core::trace::pseudo {

namespace {

constexpr std::int64_t kUnfusedDefaultTopk = 4;  // TraceLens's fallback when no TopK op is found

// k of the first `TopK` op below `uid` (depth-first, at most 10 levels): its Concrete Inputs[1].
// An error when such an op has no args (TraceLens raises there).
std::optional<std::int64_t> find_topk(const TraceModel& model, const EventTree& tree, Uid uid,
                                      int depth, std::string& error) {
  if (depth > 10 || !error.empty()) return std::nullopt;
  if (model.name(uid).find("TopK") != std::string_view::npos) {
    if ((model.event(uid).flags & kHasArgs) == 0) {
      error = "TopK op " + std::to_string(uid) + " has no args";
      return std::nullopt;
    }
    const auto concrete = arg_json(model, uid, "Concrete Inputs");
    if (concrete.IsArray() && concrete.Size() > 1) {
      const rapidjson::Value& k = concrete[1];
      const bool truthy = (k.IsString() && k.GetStringLength() > 0) ||
                          (k.IsNumber() && k.GetDouble() != 0) || (k.IsBool() && k.GetBool()) ||
                          (k.IsArray() && !k.Empty()) || (k.IsObject() && k.MemberCount() > 0);
      if (truthy) {
        if (const auto n = python_int(k)) return n;
      }
    }
  }
  for (const Uid c : tree.children(uid)) {
    if (auto k = find_topk(model, tree, c, depth + 1, error)) return k;
  }
  return std::nullopt;
}

std::string bool_text(bool b) { return b ? "true" : "false"; }

}  // namespace

RecognizerResult moe_triton_unfused(Context& ctx) {
  const TraceModel& model = ctx.model;
  for (const Uid op : ctx.names.uids(model, "vllm::moe_forward")) {
    const std::vector<Uid> gpu = ctx.tree.gpu_events(op);
    std::vector<Uid> matmuls;
    for (const Uid k : gpu) {
      if (model.event(k).category == Category::kKernel &&
          contains_lower(model.name(k), "matmul_ogs"))
        matmuls.push_back(k);
    }
    if (matmuls.empty()) continue;
    std::string error;
    std::optional<std::int64_t> topk;
    for (const Uid c : ctx.tree.children(op)) {
      topk = find_topk(model, ctx.tree, c, 0, error);
      if (topk || !error.empty()) break;
    }
    if (!error.empty()) return {std::move(error)};
    const std::int64_t k = topk.value_or(kUnfusedDefaultTopk);
    const std::int64_t sequence = sequence_or(model, op, op);
    const ShapeArgs shapes = shape_args_of(model, op);
    std::stable_sort(matmuls.begin(), matmuls.end(),
                     [&model](Uid a, Uid b) { return model.ts_us(a) < model.ts_us(b); });
    for (std::size_t i = 0; i < matmuls.size(); ++i) {
      const std::string type = i == 0 ? "up" : "down";
      const bool gated = contains_lower(model.name(matmuls[i]), "_swiglu") ||
                         contains_lower(model.name(matmuls[i]), "_glu");
      const ExtraArgs extra = {{"MoE GEMM type", json_string(type)},
                               {"MoE GEMM index", std::to_string(i)},
                               {"MoE GEMM gated", bool_text(gated)},
                               {"MoE topk", std::to_string(k)}};
      error = ctx.above_launcher(matmuls[i], "pseudo_op::moe_triton_unfused_" + type, sequence,
                                 shapes, extra);
      if (!error.empty()) return {std::move(error)};
    }
    std::vector<Uid> scatters;
    for (const Uid g : gpu) {
      if (contains_lower(model.name(g), "matmul_scatter")) scatters.push_back(g);
    }
    if (scatters.size() != 1) continue;
    error = ctx.above_launcher(scatters[0], "pseudo_op::moe_triton_unfused_finalize_matmul_scatter",
                               sequence, shapes,
                               {{"MoE GEMM type", json_string("finalize_matmul_scatter")}});
    if (!error.empty()) return {std::move(error)};
  }
  return {};
}

}  // namespace loupe::core::trace::pseudo
