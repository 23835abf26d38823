// The attention configuration and workload profile of one SDPA operation, read from its
// perf_params cell (a Python dict literal: B, N_Q, H_Q, N_KV, H_KV, d_h_qk, d_h_v, causal, ...,
// and for inference servers sum_ctx_tokens / sum_gen_tokens). Values keep their Python type
// (int stays int) so the metrics print them as TraceLens does.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "loupe/json_value.hpp"
#include "loupe/py_number.hpp"

namespace loupe::sdpa {

using loupe::PyNumber;

enum class WorkloadType { PrefillHeavy, DecodeHeavy, Mixed, Unknown };
const char* workload_type_name(WorkloadType type);
// ctx_ratio > 0.8 prefill-heavy, < 0.2 decode-heavy, else mixed.
WorkloadType workload_type_for(double ctx_ratio);

struct WorkloadProfile {
  // Null when absent (or when perf_params could not be read).
  Json batch_size, n_q, h_q, n_kv, h_kv, d_h_qk, d_h_v, causal;
  Json sum_ctx_tokens, sum_gen_tokens;
  Json ctx_ratio;
  WorkloadType workload_type = WorkloadType::Unknown;
  Json attention_pattern;  // "GQA", "MHA", "unknown"; null when the head counts are missing
  Json gqa_ratio;
  // The token counts as numbers when both are (for the category totals).
  std::optional<PyNumber> ctx_tokens, gen_tokens;
};

// TraceLens's reading of perf_params; an unreadable cell gives the empty profile.
WorkloadProfile parse_perf_params(std::string_view perf_params);

// The classification's "workload_profile" object (n_q, n_kv, h_q, h_kv, sum_ctx_tokens,
// sum_gen_tokens, ctx_ratio, workload_type, attention_pattern, gqa_ratio).
Json workload_profile_json(const WorkloadProfile& profile);

}  // namespace loupe::sdpa
