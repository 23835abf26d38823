// The token counts a serving engine writes into its step annotation: per step, the context
// (prefill) and generation (decode) query tokens (sq), key tokens (sk) and the sums of
// sq*sq and sq*sk over the step's requests. Only the detailed labels carry all of them:
//   vLLM    execute_<n>_context_<r>(sq..sk..sqsq..sqsk..)_generation_<r>(sq..sk..sqsq..sqsk..)
//   SGLang  step[EXTEND|DECODE|MIXED ... c_sq=.. c_sk=.. c_sqsq=.. c_sqsk=.. g_sq=.. ...]
//   ATOM    prefill[... tok=.. sqsq=.. sqsk=.. sk=..] / decode[...]
// The native labels (execute_context_2(14721)_generation_0(0), step[DECODE bs=64], ...) do not.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace loupe::core::prepare::perf {

struct StepTokenCounts {
  std::int64_t c_sq = 0, c_sk = 0, c_sqsq = 0, c_sqsk = 0;
  std::int64_t g_sq = 0, g_sk = 0, g_sqsq = 0, g_sqsk = 0;
};

// The counts of a detailed label; nullopt for anything else.
std::optional<StepTokenCounts> step_token_counts(std::string_view annotation);

}  // namespace loupe::core::prepare::perf
