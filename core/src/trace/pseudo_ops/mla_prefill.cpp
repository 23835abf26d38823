// AITER's FP8 MLA prefill (pseudo_ops.hpp): each Python frame `...: mla_fp8_prefill_attn` that
// reaches `aiter::mla_prefill_ps_asm_fwd` and launches GPU work gets `pseudo_mla_prefill_fwd`
// wrapping its children, with that op's shapes.
#include <regex>

#include "pseudo_op_tree.hpp"

namespace loupe::core::trace::pseudo {

RecognizerResult mla_prefill(Context& ctx) {
  static const std::regex kFrame(R"(:\s*mla_fp8_prefill_attn(\b|$))");
  return wrap_attention_frames(ctx, kFrame, "aiter::mla_prefill_ps_asm_fwd",
                               "pseudo_mla_prefill_fwd");
}

}  // namespace loupe::core::trace::pseudo
