// Which recognizers a trace selects, and running them (pseudo_ops.hpp).
#include "loupe/core/trace/pseudo_ops.hpp"

#include <cstdlib>
#include <regex>

#include "pseudo_op_tree.hpp"

namespace loupe::core::trace {

std::string_view pseudo_op_kind_name(PseudoOpKind kind) {
  switch (kind) {
    case PseudoOpKind::kMoeAiterFused:
      return "MoE_Fused";
    case PseudoOpKind::kMoeTritonUnfused:
      return "MoE_Unfused_Triton";
    case PseudoOpKind::kMoeGptqAwq:
      return "MoE_GPTQ_AWQ";
    case PseudoOpKind::kMoeFlydsl:
      return "MoE_Flydsl";
    case PseudoOpKind::kMlaDecode:
      return "MLA_Decode";
    case PseudoOpKind::kMlaPrefill:
      return "MLA_Prefill";
    case PseudoOpKind::kV4PagedDecode:
      return "V4_Paged_Decode";
  }
  return "?";
}

PseudoOpOptions PseudoOpOptions::from_environment() {
  PseudoOpOptions options;
  if (const char* model = std::getenv("TL_MODEL")) options.v4_model_name = std::string(model);
  if (const char* tp = std::getenv("TL_TP")) {
    if (const auto n = pseudo::python_int(pseudo::json_string(tp))) options.v4_tp = *n;
  }
  return options;
}

std::size_t PseudoOpReport::created() const {
  std::size_t n = 0;
  for (const auto& run : runs) n += run.created;
  return n;
}

namespace {

bool any_kernel(const TraceModel& model, std::string_view needle, bool lower) {
  const auto n = static_cast<Uid>(model.event_count());
  for (Uid u = 0; u < n; ++u) {
    if (model.event(u).category != Category::kKernel) continue;
    const std::string_view name = model.name(u);
    if (lower ? pseudo::contains_lower(name, needle) : name.find(needle) != std::string_view::npos)
      return true;
  }
  return false;
}

bool any_name(const TraceModel& model, const pseudo::NameIndex& names, const std::regex& re) {
  for (const auto& [name, uids] : names.entries()) {
    const std::string_view text = model.str(name);
    if (std::regex_search(text.begin(), text.end(), re)) return true;
  }
  return false;
}

// The recognizers the trace's op names select, in TraceLens's order.
std::vector<PseudoOpKind> select(const TraceModel& model, const pseudo::NameIndex& names,
                                 const PseudoOpOptions& options) {
  std::vector<PseudoOpKind> kinds;
  if (names.contains(model, "vllm::moe_forward")) {
    if (names.contains(model, "vllm::rocm_aiter_fused_moe")) {
      kinds.push_back(PseudoOpKind::kMoeAiterFused);
    } else if (options.moe_triton_unfused && any_kernel(model, "matmul_ogs", true)) {
      kinds.push_back(PseudoOpKind::kMoeTritonUnfused);
    }
  }
  if (names.contains(model, "vllm::outplace_fused_experts") &&
      any_kernel(model, "fused_moe_kernel_gptq_awq", false)) {
    kinds.push_back(PseudoOpKind::kMoeGptqAwq);
  }
  if (names.contains(model, "aiter::fused_moe_")) kinds.push_back(PseudoOpKind::kMoeFlydsl);
  static const std::regex kDecodeFrame(R"(aiter/mla.py\(\d+\): mla_decode_fwd)");
  if (names.contains(model, "aiter::mla_decode_stage1_asm_fwd") &&
      any_name(model, names, kDecodeFrame)) {
    kinds.push_back(PseudoOpKind::kMlaDecode);
  }
  static const std::regex kPrefillFrame(R"(:\s*mla_fp8_prefill_attn(\b|$))");
  if (names.contains(model, "aiter::mla_prefill_ps_asm_fwd") &&
      any_name(model, names, kPrefillFrame)) {
    kinds.push_back(PseudoOpKind::kMlaPrefill);
  }
  static const std::regex kV4Frame(R"(paged_decode\.py\(\d+\):\s*sparse_attn_v4_paged_decode)");
  if (any_name(model, names, kV4Frame)) kinds.push_back(PseudoOpKind::kV4PagedDecode);
  return kinds;
}

// Whether the trace names an op any recognizer starts from: without one, the name index (a sort
// of every host event) is not built.
bool may_select(const TraceModel& model) {
  for (const std::string_view name :
       {"vllm::moe_forward", "vllm::outplace_fused_experts", "aiter::fused_moe_",
        "aiter::mla_decode_stage1_asm_fwd", "aiter::mla_prefill_ps_asm_fwd"}) {
    if (model.strings().find(name) != kNoString) return true;
  }
  const StringPool& pool = model.strings();
  for (std::size_t id = 0; id < pool.size(); ++id) {
    if (pool.view(static_cast<StringId>(id)).find("sparse_attn_v4_paged_decode") !=
        std::string_view::npos) {
      return true;
    }
  }
  return false;
}

}  // namespace

PseudoOpReport add_pseudo_ops(TraceModel& model, EventTree& tree, const PseudoOpOptions& options) {
  PseudoOpReport report;
  if (!may_select(model)) return report;
  const pseudo::NameIndex names(model, tree);
  const std::vector<PseudoOpKind> kinds = select(model, names, options);
  // TraceLens's step loads a module for the paged-attention ops that its checkout does not
  // have: the whole step fails before any extension runs (docs/contracts/trace_model.md §2.10).
  if (names.contains(model, "_rocm_C::paged_attention") ||
      names.contains(model, "aiter::paged_attention_v1")) {
    report.blocked_by_paged_attention = true;
    return report;
  }
  pseudo::Context ctx{model, tree, names, static_cast<Uid>(model.event_count())};
  for (const PseudoOpKind kind : kinds) {
    const std::size_t before = ctx.created;
    pseudo::RecognizerResult result;
    switch (kind) {
      case PseudoOpKind::kMoeAiterFused:
        result = pseudo::moe_aiter_fused(ctx);
        break;
      case PseudoOpKind::kMoeTritonUnfused:
        result = pseudo::moe_triton_unfused(ctx);
        break;
      case PseudoOpKind::kMoeGptqAwq:
        result = pseudo::moe_gptq_awq(ctx);
        break;
      case PseudoOpKind::kMoeFlydsl:
        result = pseudo::moe_flydsl(ctx);
        break;
      case PseudoOpKind::kMlaDecode:
        result = pseudo::mla_decode(ctx);
        break;
      case PseudoOpKind::kMlaPrefill:
        result = pseudo::mla_prefill(ctx);
        break;
      case PseudoOpKind::kV4PagedDecode:
        result = pseudo::v4_paged_decode(ctx, options);
        break;
    }
    RecognizerRun run;
    run.kind = kind;
    run.created = ctx.created - before;
    if (!result.error.empty()) {
      run.outcome = RecognizerOutcome::kFailed;
      run.failure = std::move(result.error);
    }
    report.runs.push_back(std::move(run));
  }
  tree.annotate_added_ops(model);
  return report;
}

}  // namespace loupe::core::trace
