// Flash-attention library ops beyond the aten SDPA ops (docs/deviations.md, "Serving-engine
// ops"): flash-attn v2 backward and its variable-length (packed) forward/backward, flash-attn
// v3 forward, AITER's MHA / FMHA v3 forward and backward entry points, and DeepSpeed's
// Evoformer attention. All use the SDPA cost of docs/contracts/trace_model.md §3.9.9; what
// differs is where q/k/v and the dropout/causal scalars sit in each op's arguments, and
// whether the op itself is a backward pass (its flops and bytes are then the backward ones).
#include <initializer_list>
#include <utility>

#include "loupe/text.hpp"
#include "model_support.hpp"

namespace loupe::core::prepare::perf::detail {
namespace {

// How an op spells its dropout and causal scalars.
enum class Scalars : std::uint8_t {
  kStrict,    // float() / eval(): anything else fails the model
  kLenient,   // unparsable dropout = 0.0; causal = the text is "true" (any case)
  kDefaults,  // absent or empty: dropout 0.0, causal True; else float() / eval()
};

// Bytes per element of the op's own bytes(): SDPA's default 2, or Q's dtype.
enum class Bpe : std::uint8_t { kTwo, kQDtype };

struct AttnLayout {
  std::size_t q = 0;                   // input index of q (k, v follow)
  bool varlen = false;                 // packed (T, H, d) tensors + cu_seqlens / max_seqlen
  std::optional<std::size_t> dropout;  // nullopt = not an argument (0.0)
  std::size_t causal = 0;
  Scalars scalars = Scalars::kLenient;
  bool strides_dtypes = false;  // q/k/v strides and dtype_A_B are parameters
  bool backward_op = false;     // the op is a backward pass
  Bpe bpe = Bpe::kTwo;
  std::size_t cu_seqlens_q = 0;  // varlen: cu_seqlens_q, cu_seqlens_k follow
  std::size_t max_seqlen_q = 0;  // varlen: max_seqlen_q, max_seqlen_k follow
};

AttnLayout flash_layout_of(ModelClass model) {
  AttnLayout l;
  switch (model) {
    case ModelClass::kFlashAttnBwd:  // (dout, q, k, v, out, lse, dq, dk, dv, dropout, …)
      l.q = 1, l.dropout = 8, l.causal = 10, l.scalars = Scalars::kDefaults;
      l.strides_dtypes = l.backward_op = true, l.bpe = Bpe::kQDtype;
      return l;
    case ModelClass::kFlashAttnVarlen:  // (q, k, v, cu_q, cu_k, max_q, max_k, dropout, scale,
                                        // causal, …)
      l.varlen = true, l.dropout = 7, l.causal = 9, l.scalars = Scalars::kStrict;
      l.strides_dtypes = true, l.cu_seqlens_q = 3, l.max_seqlen_q = 5;
      return l;
    case ModelClass::kFlashAttnVarlenBwd:  // (dout, q, k, v, out, lse, dq, dk, dv, cu_q, cu_k,
                                           // max_q, max_k, dropout, scale, causal, …)
      l.q = 1, l.varlen = true, l.dropout = 13, l.causal = 15, l.scalars = Scalars::kStrict;
      l.strides_dtypes = l.backward_op = true, l.cu_seqlens_q = 9, l.max_seqlen_q = 11;
      return l;
    case ModelClass::kAiterFlashAttnBwd:
      l.dropout = 10, l.causal = 12, l.backward_op = true;
      return l;
    case ModelClass::kAiterFmhaV3Wrapper:
      l.q = 1, l.dropout = 4, l.causal = 6;
      return l;
    case ModelClass::kAiterFmhaV3WrapperBwd:
      l.q = 1, l.dropout = 7, l.causal = 9, l.backward_op = true;
      return l;
    case ModelClass::kAiterMhaBwd:  // (dout, q, k, v, out, lse, dropout, scale, causal, …)
      l.q = 1, l.dropout = 6, l.causal = 8, l.backward_op = true;
      return l;
    case ModelClass::kFlashAttnV3:  // no dropout argument; causal at [24]
      l.causal = 24;
      return l;
    default:
      throw ModelException{ModelError::kUnsupported, "no flash-attention layout for this op"};
  }
}

struct Qkv {
  std::int64_t b = 1, n_q = 0, h_q = 0, n_kv = 0, h_kv = 0, d_qk = 0, d_v = 0;
};

// q/k/v as (B, N, H, d), or packed (T, H, d) with B = 1.
Qkv read_qkv(const Json& dims, const AttnLayout& l) {
  std::int64_t b[3] = {1, 1, 1}, h[3], n[3], d[3];
  for (std::size_t i = 0; i < 3; ++i) {
    const Shape t = shape_of(at(dims, l.q + i, "Input Dims"), "q/k/v");
    const std::size_t rank = l.varlen ? 3 : 4;
    if (t.size() < rank) fail("q/k/v have too few dimensions");
    const std::size_t off = l.varlen ? 0 : 1;
    if (!l.varlen) b[i] = t[0];
    n[i] = t[off];
    h[i] = t[off + 1];
    d[i] = t[off + 2];
  }
  if (b[0] != b[1] || b[0] != b[2]) fail("Batch sizes do not match");
  if (h[1] != h[2]) fail("Head sizes do not match for K and V");
  if (n[1] != n[2]) fail("Length sizes do not match for K and V");
  if (d[0] != d[1]) fail("Head dimensions do not match for Q and K");
  return {b[0], n[0], h[0], n[1], h[1], d[0], d[2]};
}

struct Scalar {
  double dropout = 0.0;
  bool causal = false;
};

Scalar read_scalars(const OpArgs& args, const AttnLayout& l) {
  Scalar s;
  if (l.scalars == Scalars::kDefaults) {
    // Concrete Inputs may be absent altogether.
    const Json& c = args.concrete_inputs;
    const auto text = [&](std::size_t i) -> std::string {
      return c.is_array() && i < c.size() ? string_at(c, i, "Concrete Inputs") : std::string();
    };
    if (const std::string t = text(*l.dropout); !t.empty()) s.dropout = py_float_of(t);
    const std::string t = text(l.causal);
    s.causal = t.empty() ? true : eval_bool(t);
    return s;
  }
  const Json& c = required(args.concrete_inputs, "Concrete Inputs");
  const std::string& causal = string_at(c, l.causal, "Concrete Inputs");
  if (l.scalars == Scalars::kStrict) {
    s.dropout = py_float_of(string_at(c, *l.dropout, "Concrete Inputs"));
    s.causal = eval_bool(causal);
    return s;
  }
  if (l.dropout) {
    const std::string& t = string_at(c, *l.dropout, "Concrete Inputs");
    if (t != "" && t != "None") s.dropout = try_py_float(t).value_or(0.0);
  }
  s.causal = causal != "" && causal != "None" && text::ascii_lower(causal) == "true";
  return s;
}

// Varlen length estimate: the longest sequence plus (count - 1) sequences sharing the rest of
// the packed tokens evenly (floor), since the trace gives only totals, counts and maxima.
FormulaNumber varlen_flops(const SdpaShape& total, PyInt seqs_q, PyInt seqs_kv,
                           const FormulaNumber& max_q, const FormulaNumber& max_kv, bool causal,
                           bool backward) {
  const auto cost = [&](const SdpaShape& s) {
    return backward ? sdpa_flops_bwd(s, causal, true) : sdpa_flops_fwd(s, causal);
  };
  SdpaShape longest = total;
  longest.n_q = max_q;
  longest.n_kv = max_kv;
  FormulaNumber flops = cost(longest);
  if (seqs_q > 1) {
    SdpaShape rest = total;
    rest.n_q = floor_div(total.n_q - max_q, I(seqs_q - 1));
    rest.n_kv = floor_div(total.n_kv - max_kv, I(seqs_kv - 1));
    flops = flops + I(seqs_q - 1) * cost(rest);
  }
  return flops;
}

void add_shape_params(FamilyOutput& out, const Qkv& q) {
  add_int_params(out.params, {{"B", q.b},
                              {"N_Q", q.n_q},
                              {"H_Q", q.h_q},
                              {"N_KV", q.n_kv},
                              {"H_KV", q.h_kv},
                              {"d_h_qk", q.d_qk},
                              {"d_h_v", q.d_v}});
}

// EvoformerAttention(Q, K, V, res_mask, pair_bias) with Q/K/V [Batch, N_seq, N_res, H, d]:
// attention over N_res for every (Batch, N_seq) slice, never causal, not flash (its backward
// has no recompute). The mask and pair-bias reads are not counted.
FamilyOutput evoformer(const OpArgs& args, Direction direction) {
  const Shape t = shape_of(at(required(args.input_dims, "Input Dims"), 0, "Input Dims"), "Q");
  if (t.size() != 5) fail("Q must be [Batch, N_seq, N_res, Head, Dim]");
  const Qkv q{t[0] * t[1], t[2], t[3], t[2], t[3], t[4], t[4]};
  const Json& types = args.input_types;
  const bool typed = types.is_array() && types.size() > 0;
  const PyValue dtype = typed ? py(at(types, 0, "Input type")) : py_none();

  FamilyOutput out;
  add_shape_params(out, q);
  out.params.emplace_back("causal", py_bool(false));
  out.params.emplace_back("flash_impl", py_bool(false));
  out.params.emplace_back("dtype_A_B", list_of({dtype}));
  if (dtype.is_string() && !dtype.as_string().empty()) {
    out.precision_dtype = dtype.as_string();
    out.has_precision_dtype = true;
  }
  const SdpaShape shape{I(q.b), I(q.n_q), I(q.h_q), I(q.n_kv), I(q.h_kv), I(q.d_qk), I(q.d_v)};
  const bool forward = direction == Direction::kForward;
  out.flops = forward ? sdpa_flops_fwd(shape, false) : sdpa_flops_bwd(shape, false, false);
  out.bytes = I((forward ? sdpa_elems_fwd(shape) : sdpa_elems_bwd(shape)) * 2);
  return out;
}

}  // namespace

FamilyOutput flash_attention_model(ModelClass model, std::string_view /*name*/, const OpArgs& args,
                                   Direction direction) {
  if (model == ModelClass::kEvoformer) return evoformer(args, direction);
  const AttnLayout l = flash_layout_of(model);
  const Json& dims = required(args.input_dims, "Input Dims");
  const Qkv q = read_qkv(dims, l);
  PyValue dtype_a_b;
  std::vector<PyValue> strides;
  if (l.strides_dtypes) {
    dtype_a_b = slice_tuple(required(args.input_types, "Input type"), 0, 2);
    const Json& all = required(args.input_strides, "Input Strides");
    for (std::size_t i = 0; i < 3; ++i) {
      strides.push_back(py_tuple(at(all, l.q + i, "Input Strides")));
    }
  }
  PyInt seqs_q = 0, seqs_kv = 0;
  FormulaNumber max_q, max_kv;
  if (l.varlen) {
    const Shape cu_q = shape_of(at(dims, l.cu_seqlens_q, "Input Dims"), "cu_seqlens_q");
    const Shape cu_k = shape_of(at(dims, l.cu_seqlens_q + 1, "Input Dims"), "cu_seqlens_k");
    if (cu_q.empty() || cu_k.empty()) fail("cu_seqlens is a scalar");
    seqs_q = cu_q[0] - 1;
    seqs_kv = cu_k[0] - 1;
    const Json& c = required(args.concrete_inputs, "Concrete Inputs");
    max_q = F(py_float_of(string_at(c, l.max_seqlen_q, "Concrete Inputs")));
    max_kv = F(py_float_of(string_at(c, l.max_seqlen_q + 1, "Concrete Inputs")));
  }
  const Scalar s = read_scalars(args, l);

  FamilyOutput out;
  add_shape_params(out, q);
  if (l.strides_dtypes) {
    out.params.emplace_back("q_stride", strides[0]);
    out.params.emplace_back("k_stride", strides[1]);
    out.params.emplace_back("v_stride", strides[2]);
  }
  out.params.emplace_back("dropout", py_float(s.dropout));
  out.params.emplace_back("causal", py_bool(s.causal));
  out.params.emplace_back("flash_impl", py_bool(true));
  if (l.strides_dtypes) {
    out.params.emplace_back("dtype_A_B", dtype_a_b);
    if (const auto& dt = dtype_a_b.items(); !dt.empty() && dt[0].is_string()) {
      out.precision_dtype = dt[0].as_string();
      out.has_precision_dtype = true;
    }
  }
  if (l.varlen) {
    out.params.emplace_back("num_seqs_q", py_int(static_cast<std::int64_t>(seqs_q)));
    out.params.emplace_back("num_seqs_kv", py_int(static_cast<std::int64_t>(seqs_kv)));
    out.params.emplace_back("max_seqlen_q", py_float(max_q.f));
    out.params.emplace_back("max_seqlen_kv", py_float(max_kv.f));
  }

  const SdpaShape shape{I(q.b), I(q.n_q), I(q.h_q), I(q.n_kv), I(q.h_kv), I(q.d_qk), I(q.d_v)};
  // The op's own flops()/bytes() are the backward formulas for a backward op; asked for its
  // backward, every op answers with the plain (non-varlen) backward formulas at 2 bytes.
  const bool own = direction == Direction::kForward;
  const bool backward = l.backward_op || !own;
  if (own && l.varlen) {
    out.flops = varlen_flops(shape, seqs_q, seqs_kv, max_q, max_kv, s.causal, l.backward_op);
  } else {
    out.flops = backward ? sdpa_flops_bwd(shape, s.causal, true) : sdpa_flops_fwd(shape, s.causal);
  }
  PyInt bpe = 2;
  if (own && l.bpe == Bpe::kQDtype) {
    const auto& dt = dtype_a_b.items();
    const auto b =
        !dt.empty() && dt[0].is_string() ? bytes_per_element(dt[0].as_string()) : std::nullopt;
    if (!b) fail("unsupported operand type(s) for *: 'int' and 'NoneType'");
    bpe = *b;
  }
  out.bytes = I((backward ? sdpa_elems_bwd(shape) : sdpa_elems_fwd(shape)) * bpe);
  return out;
}

}  // namespace loupe::core::prepare::perf::detail
