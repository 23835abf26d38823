// AITER's flydsl two-stage MoE (pseudo_ops.hpp): each Python frame `...: flydsl_moe_stage1` /
// `...: flydsl_moe_stage2` below an `aiter::fused_moe_` op gets `pseudo_op::moe_flydsl_stage1` /
// `..._stage2` above it, with that op's shapes and sequence number.
#include <array>

#include "pseudo_op_tree.hpp"

namespace loupe::core::trace::pseudo {

namespace {

constexpr std::string_view kFusedMoe = "aiter::fused_moe_";

struct Stage {
  std::string_view pseudo_name;
  std::string_view marker;
};
constexpr std::array<Stage, 2> kStages = {
    Stage{"pseudo_op::moe_flydsl_stage1", "flydsl_moe_stage1"},
    Stage{"pseudo_op::moe_flydsl_stage2", "flydsl_moe_stage2"}};

}  // namespace

RecognizerResult moe_flydsl(Context& ctx) {
  const TraceModel& model = ctx.model;
  if (!ctx.names.contains(model, kFusedMoe)) return {};
  for (const Stage& stage : kStages) {
    const std::string suffix = ": " + std::string(stage.marker);
    for (const auto& [name, uids] : ctx.names.entries()) {
      if (!model.str(name).ends_with(suffix)) continue;
      for (const Uid frame : uids) {
        const std::string_view cat = model.str(model.event(frame).cat);
        if (cat != "python_func" && cat != "python_function") continue;
        const Uid fused = ancestor_named(model, ctx.tree, frame, kFusedMoe);
        if (fused == kNoUid) continue;
        const ExtraArgs extra = {
            {"Sequence number", std::to_string(sequence_or(model, fused, fused))},
            {"MoE flydsl stage", json_string(stage.marker)}};
        auto error = ctx.above_event(frame, stage.pseudo_name, fused, extra);
        if (!error.empty()) return {std::move(error)};
      }
    }
  }
  return {};
}

}  // namespace loupe::core::trace::pseudo
