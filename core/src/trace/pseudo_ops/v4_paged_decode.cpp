// DeepSeek-V4 sparse paged decode (pseudo_ops.hpp): each Python frame
// `paged_decode.py(<n>): sparse_attn_v4_paged_decode` inside an
// `aiter::v4_attention_with_output` op gets `pseudo_v4_paged_decode_{swa,csa,hca}` wrapping its
// children, with that op's shapes and the variant the op's kernels show: the mode (HCA or CSA
// compression kernels, else sliding-window), the query heads and head size of its
// `qk_norm_rope_H<h>_D<d>_RD<r>` kernel, the call's index in program order, and the model name
// and tensor parallelism of PseudoOpOptions.
#include <algorithm>
#include <array>
#include <regex>
#include <span>

#include "pseudo_op_tree.hpp"

namespace loupe::core::trace::pseudo {

namespace {

constexpr std::string_view kV4Attention = "aiter::v4_attention_with_output";
constexpr std::array<std::string_view, 3> kHcaPrefixes = {"hca_compress_forward",
                                                          "hca_norm_rope_scatter", "hca_"};
constexpr std::array<std::string_view, 2> kCsaPrefixes = {"fused_compress_attn",
                                                          "_update_compressor_states_kernel"};

bool starts_with_any(std::string_view name, std::span<const std::string_view> prefixes) {
  return std::any_of(prefixes.begin(), prefixes.end(),
                     [name](std::string_view p) { return name.starts_with(p); });
}

std::string_view mode_of(const std::vector<std::string_view>& kernels) {
  const auto any = [&kernels](std::span<const std::string_view> prefixes) {
    return std::any_of(kernels.begin(), kernels.end(),
                       [prefixes](std::string_view n) { return starts_with_any(n, prefixes); });
  };
  if (any(kHcaPrefixes)) return "hca";
  if (any(kCsaPrefixes)) return "csa";
  return "swa";
}

// Program order of the frames: (pid, tid, ts), stable; false when an int and a string id meet
// (Python cannot order them, and the extension fails).
bool program_order(const TraceModel& model, std::vector<Uid>& frames) {
  bool comparable = true;
  const auto key_less = [&comparable, &model](const IdValue& a, const IdValue& b) {
    if (a.is_string != b.is_string) {
      comparable = false;
      return false;
    }
    if (!a.is_string) return a.value < b.value;
    return model.str(static_cast<StringId>(a.value)) < model.str(static_cast<StringId>(b.value));
  };
  const auto thread_key = [&model](Uid u) {
    const std::uint32_t t = model.event(u).thread;
    return t == kNoIndex ? ThreadKey{} : model.threads()[t].key;
  };
  std::stable_sort(frames.begin(), frames.end(), [&](Uid a, Uid b) {
    const ThreadKey ka = thread_key(a);
    const ThreadKey kb = thread_key(b);
    if (ka.pid != kb.pid) return key_less(ka.pid, kb.pid);
    if (ka.tid != kb.tid) return key_less(ka.tid, kb.tid);
    return model.ts_us(a) < model.ts_us(b);
  });
  return comparable;
}

}  // namespace

RecognizerResult v4_paged_decode(Context& ctx, const PseudoOpOptions& options) {
  static const std::regex kFrame(R"(paged_decode\.py\(\d+\):\s*sparse_attn_v4_paged_decode\b)");
  static const std::regex kGeometry(R"(qk_norm_rope_H(\d+)_D(\d+)_RD(\d+))");
  const TraceModel& model = ctx.model;
  std::vector<Uid> frames = python_frames_matching(ctx, kFrame);
  if (!program_order(model, frames)) return {"sparse decode frames with int and string ids"};
  for (std::size_t call = 0; call < frames.size(); ++call) {
    const Uid frame = frames[call];
    const Uid attention = ancestor_named(model, ctx.tree, frame, kV4Attention);
    if (attention == kNoUid || !ctx.tree.has_gpu_events(frame)) continue;
    std::vector<std::string_view> kernels;
    for (const Uid k : ctx.tree.gpu_events(attention)) kernels.push_back(model.name(k));
    const std::string_view mode = mode_of(kernels);
    ExtraArgs extra = {
        {"v4_mode", json_string(mode)},
        {"v4_call_index", std::to_string(call)},
        {"v4_model_name", options.v4_model_name ? json_string(*options.v4_model_name) : "null"},
        {"v4_tp", std::to_string(options.v4_tp)}};
    for (const std::string_view name : kernels) {
      std::match_results<std::string_view::const_iterator> m;
      if (std::regex_search(name.begin(), name.end(), m, kGeometry)) {
        // Numerals of any length: kept when they fit an int64 (every real head count does).
        if (const auto h = python_int(json_string(m[1].str()))) {
          extra.emplace_back("v4_H_Q", std::to_string(*h));
        }
        if (const auto d = python_int(json_string(m[2].str()))) {
          extra.emplace_back("v4_d_h", std::to_string(*d));
        }
        break;
      }
    }
    auto error =
        ctx.wrap_children(frame, "pseudo_v4_paged_decode_" + std::string(mode), attention, extra);
    if (!error.empty()) return {std::move(error)};
  }
  return {};
}

}  // namespace loupe::core::trace::pseudo
