// Serving-engine attention (TraceLens's InferenceAttention family, docs/deviations.md,
// "Serving-engine ops"): one kernel runs a whole step's attention, chunked prefill and decode
// together, so its work follows from the step's token counts (loupe/core/trace/step_labels.hpp),
// not from the op's shapes alone.
//   Q [N_Q, H_Q, d_qk], K [..., N_KV, H_KV, d_v]
//   flops = H_Q * (2 * c_sqsk - c_sqsq) * (d_qk + d_v)  (causal within the current chunk)
//         + H_Q * 2 * g_sqsk * (d_qk + d_v)
//   bytes = Q, output and the current tokens' K/V in the Q dtype, the cached K/V (sk - sq) in
//           the KV dtype.
// Each class reads its shapes from its own argument layout:
//   * vLLM unified attention, AITER MHA varlen, the MLA decode pseudo op: Q = Input Dims[0],
//     K = [1]; the FMHA v3 varlen, batch-prefill (paged chunked prefill) and MLA prefill ops
//     take d_v from V = [2];
//   * SGLang's ragged paged attention: Q = [2], paged K/V caches = [3]/[4]
//     ([pages, page_size, H_KV, d]), no separate KV dtype;
//   * AITER's Gluon paged decode: decode only (the context counts are zeroed), H_KV from the
//     cache [2], the KV dtype from Input type[2], and a sliding window (Concrete Inputs[19])
//     that caps each decode token's KV span: g_sk and g_sqsk become min(., g_sq * W);
//   * SGLang's TileLang sparse MLA: d_v = 512 (TraceLens looks for the value head size where
//     traces do not record it, so it always takes this default);
//   * AITER's sparse paged prefill (DeepSeek-V4): no step counts; the attended (token, slot)
//     pairs are the selected history plus the local window, [2][0] + [5][0], over one latent KV
//     head: flops = pairs * H_Q * 2 * (d_qk + d_v), bytes = Q and output + pairs * d_v;
//   * the gated delta net (vLLM's and AITER's linear attention): a recurrent state per value
//     head, no KV cache: flops = 7 * d_v * d_k per token and value head, bytes = (d_k + 2 d_v +
//     2) elements per token and value head at 2 bytes.
// Without a detailed step annotation the step-count models have no numbers (the row keeps no
// metrics); a step with neither context nor generation tokens is not modeled (the row is
// dropped).
#include <algorithm>
#include <cmath>

#include "loupe/core/trace/step_labels.hpp"
#include "loupe/text.hpp"
#include "model_support.hpp"

namespace loupe::core::prepare::perf::detail {
namespace {

using trace::StepTokenCounts;

struct Attention {
  std::int64_t n_q = 0, h_q = 0, h_kv = 0, n_kv = 0, d_qk = 0, d_v = 0;
  std::optional<StepTokenCounts> counts;  // nullopt: the class does not read the step
  std::optional<std::int64_t> prefill_pairs;
  std::string dtype_q;
  std::optional<std::string> dtype_kv;  // nullopt: the class names none (the Q dtype's width)
  std::optional<std::int64_t> sliding_window;
};

StepTokenCounts counts_of(std::string_view name, const OpArgs& args) {
  const auto counts =
      args.step_annotation ? trace::step_token_counts(*args.step_annotation) : std::nullopt;
  if (!counts) fail(std::string(name).append(": no step annotation with token counts"));
  return *counts;
}

Shape dims_at(const Json& dims, std::size_t i, std::string_view what) {
  return shape_of(at(dims, i, "Input Dims"), what);
}

// Q [N_Q, H_Q, d_qk] (exactly three dimensions) and K's last three [N_KV, H_KV, d_v].
Attention base_layout(std::string_view name, const OpArgs& args) {
  Attention a;
  a.counts = counts_of(name, args);
  const Json& dims = required(args.input_dims, "Input Dims");
  const Shape q = dims_at(dims, 0, "Q");
  const Shape k = dims_at(dims, 1, "K");
  if (q.size() != 3 || k.size() < 3) fail("attention Q/K shapes must be 3-D");
  a.n_q = q[0];
  a.h_q = q[1];
  a.d_qk = q[2];
  a.n_kv = k[k.size() - 3];
  a.h_kv = k[k.size() - 2];
  a.d_v = k[k.size() - 1];
  const Json& types = required(args.input_types, "Input type");
  a.dtype_q = string_at(types, 0, "Input type");
  a.dtype_kv = types.size() > 1 ? string_at(types, 1, "Input type") : a.dtype_q;
  return a;
}

// d_v from V = Input Dims[2] when the op records it.
void v_head_from_dims(Attention& a, const OpArgs& args) {
  const Json& dims = args.input_dims;
  if (dims.is_array() && dims.size() > 2 && dims.as_array()[2].is_array() &&
      dims.as_array()[2].size() >= 1) {
    const Shape v = dims_at(dims, 2, "V");
    a.d_v = v.back();
  }
}

Attention paged_ragged_layout(std::string_view name, const OpArgs& args) {
  Attention a;
  a.counts = counts_of(name, args);
  const Json& dims = required(args.input_dims, "Input Dims");
  const Shape q = dims_at(dims, 2, "Q");
  const Shape k = dims_at(dims, 3, "K cache");
  const Shape v = dims_at(dims, 4, "V cache");
  if (q.size() != 3 || k.size() < 2 || v.empty()) fail("paged attention shapes");
  a.n_q = q[0];
  a.h_q = q[1];
  a.d_qk = q[2];
  a.h_kv = k[k.size() - 2];
  a.d_v = v.back();
  a.n_kv = a.counts->c_sk + a.counts->g_sk;
  a.dtype_q = string_at(required(args.input_types, "Input type"), 2, "Input type");
  return a;
}

Attention gluon_decode_layout(std::string_view name, const OpArgs& args) {
  Attention a;
  a.counts = counts_of(name, args);
  const Json& dims = required(args.input_dims, "Input Dims");
  const Shape q = dims_at(dims, 0, "Q");
  const Shape cache = dims_at(dims, 2, "K cache");
  if (q.size() < 3 || cache.size() < 2) fail("paged decode shapes");
  a.n_q = q[0];
  a.h_q = q[1];
  a.d_qk = q[2];
  a.h_kv = cache[1];
  a.d_v = a.d_qk;
  a.counts->c_sq = a.counts->c_sk = a.counts->c_sqsq = a.counts->c_sqsk = 0;
  a.n_kv = a.counts->g_sk;
  const Json& types = required(args.input_types, "Input type");
  a.dtype_q = string_at(types, 0, "Input type");
  a.dtype_kv = string_at(types, types.size() > 2 ? 2 : 0, "Input type");
  a.sliding_window = 0;
  const Json& concrete = args.concrete_inputs;
  if (concrete.is_array() && concrete.size() > 19 && concrete.as_array()[19].is_string()) {
    try {
      a.sliding_window = py_int_of(concrete.as_array()[19].as_string());
    } catch (const ModelException&) {
      a.sliding_window = 0;
    }
  }
  return a;
}

Attention sparse_prefill_layout(const OpArgs& args) {
  Attention a;
  const Json& dims = required(args.input_dims, "Input Dims");
  const Shape q = dims_at(dims, 0, "Q");
  const Shape prefix = dims_at(dims, 2, "kv_indices_prefix");
  const Shape extend = dims_at(dims, 5, "kv_indices_extend");
  if (q.size() < 3 || prefix.empty() || extend.empty()) fail("sparse prefill shapes");
  a.n_q = q[0];
  a.h_q = q[1];
  a.d_qk = a.d_v = q[2];
  a.h_kv = 1;
  a.prefill_pairs = prefix[0] + extend[0];
  a.n_kv = *a.prefill_pairs;
  const Json& types = required(args.input_types, "Input type");
  a.dtype_q = string_at(types, 0, "Input type");
  a.dtype_kv = types.size() > 1 ? string_at(types, 1, "Input type") : a.dtype_q;
  return a;
}

// A pseudo-op arg: its value when present and truthy, else nullopt.
std::optional<std::int64_t> pseudo_int(const OpArgs& args, const char* key) {
  const Json* v = args.pseudo_args.is_object() ? args.pseudo_args.find(key) : nullptr;
  if (v == nullptr || v->is_null()) return std::nullopt;
  std::int64_t out = 0;
  if (v->is_int()) {
    out = v->as_int();
  } else if (v->is_string()) {
    if (v->as_string().empty()) return std::nullopt;
    out = py_int_of(v->as_string());
  } else {
    fail(std::string(key).append(" is not an integer"));
  }
  return out == 0 ? std::nullopt : std::optional(out);
}

// DeepSeek-V4 paged decode (sparse MLA, decode only): Q = Input Dims[0] (N_Q, else the step's
// g_sq), one latent KV head of d_h both ways, bf16 Q and KV cache. The model variant's head
// count, head size, window and indexer budget come from the pseudo op's v4_* args, else from
// DeepSeek-V4-Flash's configuration (64 heads over the tensor-parallel degree, d_h 512, window
// 128, top-512 indexer; -Pro: 128 heads, top-1024). The KV span each decode query attends is
// the window (SWA), the window plus min(ceil(mean context / 4), top-k) compressed slots (CSA;
// window + top-k without step counts), or the window plus ceil(mean context / 128)
// hierarchical slots (HCA; uncapped without step counts).
Attention v4_decode_layout(ModelClass model, std::string_view name, const OpArgs& args) {
  Attention a;
  a.counts = counts_of(name, args);
  StepTokenCounts& c = *a.counts;
  c.c_sq = c.c_sk = c.c_sqsq = c.c_sqsk = 0;
  bool pro = false;
  if (const Json* m =
          args.pseudo_args.is_object() ? args.pseudo_args.find("v4_model_name") : nullptr;
      m != nullptr && m->is_string()) {
    pro = text::ascii_lower(m->as_string()).find("deepseek-v4-pro") != std::string::npos;
  }
  const std::int64_t heads = pro ? 128 : 64, topk_default = pro ? 1024 : 512;
  a.h_q = pseudo_int(args, "v4_H_Q")
              .value_or(std::max<std::int64_t>(1, heads / pseudo_int(args, "v4_tp").value_or(1)));
  a.d_qk = a.d_v = pseudo_int(args, "v4_d_h").value_or(512);
  a.h_kv = 1;
  a.n_q = c.g_sq;
  const Json& dims = args.input_dims;
  if (dims.is_array() && dims.size() > 0 && dims.as_array()[0].is_array() &&
      dims.as_array()[0].size() > 0) {
    const Shape q = dims_at(dims, 0, "Q");
    if (q[0] != 0) a.n_q = q[0];
  }
  a.n_kv = c.g_sk;
  a.dtype_q = "c10::bfloat16";
  a.dtype_kv = "c10::bfloat16";
  const std::int64_t window = pseudo_int(args, "v4_window").value_or(128);
  const std::int64_t topk = pseudo_int(args, "v4_index_topk").value_or(topk_default);
  const auto mean_ctx_slots = [&](double stride) {
    return static_cast<std::int64_t>(
        std::ceil(static_cast<double>(c.g_sk) / static_cast<double>(c.g_sq) / stride));
  };
  if (model == ModelClass::kV4PagedDecodeCsa) {
    a.sliding_window = c.g_sq <= 0 ? window + topk : window + std::min(mean_ctx_slots(4), topk);
  } else if (model == ModelClass::kV4PagedDecodeHca) {
    a.sliding_window = c.g_sq <= 0 ? 0 : window + mean_ctx_slots(128);
  } else {
    a.sliding_window = window;
  }
  return a;
}

void emit_params(const Attention& a, FamilyOutput& out) {
  const std::pair<const char*, std::int64_t> shape_params[] = {
      {"B", 1},         {"N_Q", a.n_q},   {"H_Q", a.h_q},     {"H_V", a.h_kv}, {"H_K", a.h_kv},
      {"N_KV", a.n_kv}, {"H_KV", a.h_kv}, {"d_h_qk", a.d_qk}, {"d_h_v", a.d_v}};
  for (const auto& [key, value] : shape_params) out.params.emplace_back(key, py_int(value));
  out.params.emplace_back("dropout", py_float(0.0));
  out.params.emplace_back("causal", py_bool(false));
  out.params.emplace_back("flash_impl", py_bool(true));
  if (a.counts) {
    const StepTokenCounts& c = *a.counts;
    const std::pair<const char*, std::int64_t> count_params[] = {
        {"c_sq", c.c_sq}, {"c_sk", c.c_sk}, {"c_sqsq", c.c_sqsq}, {"c_sqsk", c.c_sqsk},
        {"g_sq", c.g_sq}, {"g_sk", c.g_sk}, {"g_sqsq", c.g_sqsq}, {"g_sqsk", c.g_sqsk}};
    for (const auto& [key, value] : count_params) out.params.emplace_back(key, py_int(value));
  }
  if (a.prefill_pairs) out.params.emplace_back("prefill_pairs", py_int(*a.prefill_pairs));
  out.params.emplace_back("dtype_Q", py_str(a.dtype_q));
  if (a.dtype_kv) out.params.emplace_back("dtype_KV", py_str(*a.dtype_kv));
  if (a.sliding_window) out.params.emplace_back("sliding_window", py_int(*a.sliding_window));
}

int bpe_q(const Attention& a) { return bytes_per_element(a.dtype_q).value_or(2); }
int bpe_kv(const Attention& a) {
  const int q = bpe_q(a);
  return a.dtype_kv && !a.dtype_kv->empty() ? bytes_per_element(*a.dtype_kv).value_or(q) : q;
}

// The step-count formulas, the generation KV span capped by a sliding window.
void step_formulas(const Attention& a, FamilyOutput& out) {
  const StepTokenCounts& c = *a.counts;
  if (c.c_sq == 0 && c.g_sq == 0) {
    not_implemented("Attention perf model for decode phase requires custom annotations");
  }
  const auto cap = [&](std::int64_t value) -> PyInt {
    const std::int64_t w = a.sliding_window.value_or(0);
    if (w > 0 && c.g_sq != 0) return std::min<PyInt>(value, PyInt{c.g_sq} * w);
    return value;
  };
  const PyInt H_Q = a.h_q, H_KV = a.h_kv, D_QK = a.d_qk, D_V = a.d_v;
  const PyInt c_sq = c.c_sq, c_sk = c.c_sk, c_sqsq = c.c_sqsq, c_sqsk = c.c_sqsk;
  const PyInt g_sq = c.g_sq, g_sk = cap(c.g_sk), g_sqsk = cap(c.g_sqsk);
  out.flops = I(H_Q * (2 * c_sqsk * D_QK) + H_Q * (2 * c_sqsk * D_V) - H_Q * (c_sqsq * D_QK) -
                H_Q * (c_sqsq * D_V) + H_Q * (2 * g_sqsk * D_QK) + H_Q * (2 * g_sqsk * D_V));
  const PyInt per_q_token = H_Q * D_QK + H_Q * D_V + H_KV * D_QK + H_KV * D_V;
  const PyInt per_cached_token = H_KV * D_QK + H_KV * D_V;
  out.bytes = I((c_sq + g_sq) * per_q_token * bpe_q(a) +
                ((c_sk - c_sq) + (g_sk - g_sq)) * per_cached_token * bpe_kv(a));
}

// Gated delta net: mixed_qkv [T, 2 H_K d_k + H_V d_v], b [T, H_V], a, out [T, H_V, d_v].
FamilyOutput gated_delta_net(std::string_view /*name*/, const OpArgs& args, Direction direction) {
  // Unlike the other step-reading classes, TraceLens's GDN class does not catch the annotation
  // parser's NotImplementedError: without a step label with token counts the row is dropped.
  const auto labeled =
      args.step_annotation ? trace::step_token_counts(*args.step_annotation) : std::nullopt;
  if (!labeled) not_implemented("attention without sq/sk annotation is not supported");
  const StepTokenCounts c = *labeled;
  const Json& dims = required(args.input_dims, "Input Dims");
  const Shape qkv = dims_at(dims, 0, "mixed_qkv");
  const Shape b = dims_at(dims, 1, "b");
  const Shape o = dims_at(dims, 3, "core_attn_out");
  if (qkv.size() < 2 || b.size() < 2 || o.size() < 3) fail("gated delta net shapes");
  const PyInt width = qkv[1], h_v = b[1], d_v = o[2];
  const auto floor_div = [](PyInt x, PyInt y) {
    if (y == 0) fail("integer division by zero");
    PyInt q = x / y;
    if ((x % y != 0) && ((x < 0) != (y < 0))) --q;
    return q;
  };
  const PyInt h_k = floor_div(h_v, 2);
  const PyInt d_k = floor_div(floor_div(width - h_v * d_v, 2), h_k);
  const std::string& dtype = string_at(required(args.input_types, "Input type"), 0, "Input type");

  FamilyOutput out;
  const auto i64 = [](PyInt v) { return py_int(static_cast<std::int64_t>(v)); };
  out.params.emplace_back("B", py_int(1));
  out.params.emplace_back("N_Q", py_int(c.c_sq + c.g_sq));
  out.params.emplace_back("H_Q", i64(h_k));
  out.params.emplace_back("N_KV", py_int(0));
  out.params.emplace_back("H_KV", i64(h_k));
  out.params.emplace_back("H_V", i64(h_v));
  out.params.emplace_back("H_K", i64(h_k));
  out.params.emplace_back("d_h_qk", i64(d_k));
  out.params.emplace_back("d_h_v", i64(d_v));
  const std::pair<const char*, std::int64_t> counts[] = {
      {"c_sq", c.c_sq}, {"c_sk", c.c_sq}, {"c_sqsq", 0}, {"c_sqsk", 0},
      {"g_sq", c.g_sq}, {"g_sk", c.g_sq}, {"g_sqsq", 0}, {"g_sqsk", 0}};
  for (const auto& [key, value] : counts) out.params.emplace_back(key, py_int(value));
  out.params.emplace_back("dtype_Q", py_str(dtype));
  set_precision(out, dtype);

  if (direction == Direction::kBackward) {
    not_implemented("Backward pass for GDN attention is not defined.");
  }
  const PyInt tokens = PyInt{c.c_sq} + c.g_sq;
  if (tokens == 0) {
    not_implemented("GDN perf model requires annotation with non-zero c_sq or g_sq");
  }
  out.flops = I(tokens * h_v * 7 * d_v * d_k);
  out.bytes = I(tokens * (h_v * (d_k + 2 * d_v + 2)) * 2);
  return out;
}

}  // namespace

FamilyOutput inference_attention_model(ModelClass model, std::string_view name, const OpArgs& args,
                                       Direction direction) {
  if (model == ModelClass::kGatedDeltaNet) return gated_delta_net(name, args, direction);
  Attention a;
  switch (model) {
    case ModelClass::kInferenceAttentionVHead:
      a = base_layout(name, args);
      v_head_from_dims(a, args);
      break;
    case ModelClass::kPagedAttentionRagged:
      a = paged_ragged_layout(name, args);
      break;
    case ModelClass::kPagedDecodeGluon:
      a = gluon_decode_layout(name, args);
      break;
    case ModelClass::kMlaTilelangSparse:
      a = base_layout(name, args);
      a.d_v = 512;
      break;
    case ModelClass::kSparsePagedPrefill:
      a = sparse_prefill_layout(args);
      break;
    case ModelClass::kV4PagedDecodeSwa:
    case ModelClass::kV4PagedDecodeCsa:
    case ModelClass::kV4PagedDecodeHca:
      a = v4_decode_layout(model, name, args);
      break;
    default:  // kInferenceAttention
      a = base_layout(name, args);
      break;
  }
  FamilyOutput out;
  emit_params(a, out);
  if (model == ModelClass::kSparsePagedPrefill) {
    // Q's dtype, or bf16 (the sparse prefill's MFMA precision) when the trace has none.
    set_precision(out, a.dtype_q.empty() ? std::string("c10::bfloat16") : a.dtype_q);
  } else {
    set_precision(out, a.dtype_q);
  }
  if (direction == Direction::kBackward) {
    not_implemented("Backward pass for attention is not defined.");
  }
  if (model == ModelClass::kSparsePagedPrefill) {
    const PyInt pairs = *a.prefill_pairs;
    out.flops = I(pairs * a.h_q * 2 * (PyInt{a.d_qk} + a.d_v));
    out.bytes = I(2 * PyInt{a.n_q} * a.h_q * a.d_qk * bpe_q(a) + pairs * a.d_v * bpe_kv(a));
    return out;
  }
  step_formulas(a, out);
  return out;
}

}  // namespace loupe::core::prepare::perf::detail
