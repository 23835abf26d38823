// Serving-engine attention (TraceLens's InferenceAttention; vllm::unified_attention_with_output):
// one kernel runs a whole step's attention, chunked prefill and decode together, so its work
// follows from the step's token counts (loupe/core/trace/step_labels.hpp), not from the op's shapes
// alone.
//   Q [N_Q, H_Q, d_qk], K [..., N_KV, H_KV, d_v] from Input Dims[0] and [1].
//   flops = H_Q * (2 * c_sqsk - c_sqsq) * (d_qk + d_v)  (causal within the current chunk)
//         + H_Q * 2 * g_sqsk * (d_qk + d_v)
//   bytes = Q, output and the current tokens' K/V in the Q dtype, the cached K/V (sk - sq) in
//           the KV dtype.
// Without a detailed step annotation the model has no numbers (the row keeps no metrics); a
// step with neither context nor generation tokens is not modeled (the row is dropped).
#include "loupe/core/trace/step_labels.hpp"
#include "model_support.hpp"

namespace loupe::core::prepare::perf::detail {

FamilyOutput inference_attention_model(ModelClass /*model*/, std::string_view name,
                                       const OpArgs& args, Direction direction) {
  const auto counts =
      args.step_annotation ? trace::step_token_counts(*args.step_annotation) : std::nullopt;
  if (!counts) fail(std::string(name).append(": no step annotation with token counts"));
  const Json& dims = required(args.input_dims, "Input Dims");
  const Shape q = shape_of(at(dims, 0, "Input Dims"), "Q");
  const Shape k = shape_of(at(dims, 1, "Input Dims"), "K");
  if (q.size() != 3 || k.size() < 3) fail("attention Q/K shapes must be 3-D");
  const Json& types = required(args.input_types, "Input type");
  const std::string& dtype_q = string_at(types, 0, "Input type");
  const std::string& dtype_kv = types.size() > 1 ? string_at(types, 1, "Input type") : dtype_q;
  const std::int64_t n_q = q[0], h_q = q[1], d_qk = q[2];
  const std::int64_t n_kv = k[k.size() - 3], h_kv = k[k.size() - 2], d_v = k[k.size() - 1];

  FamilyOutput out;
  const std::pair<const char*, std::int64_t> shape_params[] = {
      {"B", 1},       {"N_Q", n_q},   {"H_Q", h_q},     {"H_V", h_kv}, {"H_K", h_kv},
      {"N_KV", n_kv}, {"H_KV", h_kv}, {"d_h_qk", d_qk}, {"d_h_v", d_v}};
  for (const auto& [key, value] : shape_params) out.params.emplace_back(key, py_int(value));
  out.params.emplace_back("dropout", py_float(0.0));
  out.params.emplace_back("causal", py_bool(false));
  out.params.emplace_back("flash_impl", py_bool(true));
  const std::pair<const char*, std::int64_t> count_params[] = {
      {"c_sq", counts->c_sq},     {"c_sk", counts->c_sk},    {"c_sqsq", counts->c_sqsq},
      {"c_sqsk", counts->c_sqsk}, {"g_sq", counts->g_sq},    {"g_sk", counts->g_sk},
      {"g_sqsq", counts->g_sqsq}, {"g_sqsk", counts->g_sqsk}};
  for (const auto& [key, value] : count_params) out.params.emplace_back(key, py_int(value));
  out.params.emplace_back("dtype_Q", py_str(dtype_q));
  out.params.emplace_back("dtype_KV", py_str(dtype_kv));
  if (!dtype_q.empty()) {
    out.precision_dtype = dtype_q;
    out.has_precision_dtype = true;
  }

  if (direction == Direction::kBackward) {
    not_implemented("Backward pass for attention is not defined.");
  }
  if (counts->c_sq == 0 && counts->g_sq == 0) {
    not_implemented("Attention perf model for decode phase requires custom annotations");
  }
  const PyInt H_Q = h_q, H_KV = h_kv, D_QK = d_qk, D_V = d_v;
  const PyInt c_sq = counts->c_sq, c_sk = counts->c_sk, c_sqsq = counts->c_sqsq;
  const PyInt c_sqsk = counts->c_sqsk, g_sq = counts->g_sq, g_sk = counts->g_sk;
  const PyInt g_sqsk = counts->g_sqsk;
  const PyInt flops = H_Q * (2 * c_sqsk * D_QK) + H_Q * (2 * c_sqsk * D_V) - H_Q * (c_sqsq * D_QK) -
                      H_Q * (c_sqsq * D_V) + H_Q * (2 * g_sqsk * D_QK) + H_Q * (2 * g_sqsk * D_V);
  out.flops = I(flops);
  const int bpe = bytes_per_element(dtype_q).value_or(2);
  const int bpe_kv = dtype_kv.empty() ? bpe : bytes_per_element(dtype_kv).value_or(bpe);
  const PyInt per_q_token = H_Q * D_QK + H_Q * D_V + H_KV * D_QK + H_KV * D_V;
  const PyInt per_cached_token = H_KV * D_QK + H_KV * D_V;
  out.bytes = I((c_sq + g_sq) * per_q_token * bpe +
                ((c_sk - c_sq) + (g_sk - g_sq)) * per_cached_token * bpe_kv);
  return out;
}

}  // namespace loupe::core::prepare::perf::detail
