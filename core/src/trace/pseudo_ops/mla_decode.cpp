// AITER's MLA decode (pseudo_ops.hpp): each Python frame `aiter/mla.py(<n>): mla_decode_fwd`
// that reaches `aiter::mla_decode_stage1_asm_fwd` and launches GPU work gets
// `pseudo_mla_decode_fwd` wrapping its children, with that op's shapes, so the decode's kernels
// form one attention op.
#include <regex>

#include "pseudo_op_tree.hpp"

namespace loupe::core::trace::pseudo {

RecognizerResult mla_decode(Context& ctx) {
  static const std::regex kFrame(R"(aiter/mla.py\(\d+\): mla_decode_fwd)");
  return wrap_attention_frames(ctx, kFrame, "aiter::mla_decode_stage1_asm_fwd",
                               "pseudo_mla_decode_fwd");
}

}  // namespace loupe::core::trace::pseudo
