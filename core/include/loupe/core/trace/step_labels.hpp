// The step labels serving engines write as user annotations around each model step, and what
// they say (docs/report.md, "Serving steps and GPU graphs"). One owner for every label rule:
// the inference-attention perf model reads the token counts, the run report the phases.
//
// Token counts: per step, the context (prefill) and generation (decode) query tokens (sq), key
// tokens (sk) and the sums of sq*sq and sq*sk over the step's requests. Only the detailed labels
// carry all of them:
//   vLLM    execute_<n>_context_<r>(sq..sk..sqsq..sqsk..)_generation_<r>(sq..sk..sqsq..sqsk..)
//   SGLang  step[EXTEND|DECODE|MIXED ... c_sq=.. c_sk=.. c_sqsq=.. c_sqsk=.. g_sq=.. ...]
//   ATOM    prefill[... tok=.. sqsq=.. sqsk=.. sk=..] / decode[...]
// The native labels (execute_context_2(14721)_generation_0(0), step[DECODE bs=64], ...) do not.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace loupe::core::trace {

struct StepTokenCounts {
  std::int64_t c_sq = 0, c_sk = 0, c_sqsq = 0, c_sqsk = 0;
  std::int64_t g_sq = 0, g_sk = 0, g_sqsq = 0, g_sqsk = 0;
};

// The counts of a detailed label; nullopt for anything else.
std::optional<StepTokenCounts> step_token_counts(std::string_view annotation);

// Which label grammar a step annotation follows (the engine that writes it; SGLang also writes
// the vLLM-style execute_ label around its own step[...] label).
enum class StepLabelFormat : std::uint8_t { kVllmExecute, kSglangStep, kAtom, kXditDiffusion };

// The serving phase of one step: prefill only, decode only, both in one batch (chunked prefill,
// mixed batches), a diffusion denoising step, or a label that names none.
enum class StepPhase : std::uint8_t { kPrefill, kDecode, kMixed, kDiffusion, kUnknown };

std::string_view step_label_format_name(StepLabelFormat format);  // "vLLM execute", ...
std::string_view step_phase_name(StepPhase phase);                // "prefill", "decode", ...

// What a step label says; a count the label does not carry is nullopt.
struct StepLabel {
  StepLabelFormat format = StepLabelFormat::kVllmExecute;
  StepPhase phase = StepPhase::kUnknown;
  std::optional<std::int64_t> prefill_requests, decode_requests;
  std::optional<std::int64_t> prefill_tokens, decode_tokens;
  std::optional<std::int64_t> batch_size;  // SGLang / ATOM bs=
};

// The label's format, phase and counts, for the labels above plus the native ones:
//   execute_context_<r>(<tokens>)_generation_<r>(<tokens>)   (vLLM)
//   step[DECODE bs=64] / step[EXTEND ...] / step[MIXED ...]  (SGLang)
//   prefill[bs=.. tok=..] / decode[bs=.. tok=..]              (ATOM)
//   execute_diffusion_...                                     (xDiT)
// nullopt for any other annotation.
std::optional<StepLabel> parse_step_label(std::string_view annotation);

}  // namespace loupe::core::trace
