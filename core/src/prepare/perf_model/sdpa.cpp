// Scaled-dot-product attention models (docs/contracts/trace_model.md §3.9.9): the aten SDPA ops,
// flash-attn v2 forward (flash_attn::_flash_attn_forward, FlashAttnFunc) and
// aiter::_flash_attn_forward.
#include "loupe/text.hpp"
#include "model_support.hpp"

namespace loupe::core::prepare::perf::detail {
namespace {

struct SdpaLayout {
  std::size_t q = 0;  // input index of q (k, v follow)
  bool bnhd = false;  // tensors are (B, N, H, d) instead of (B, H, N, d)
  std::size_t dropout = 3;
  std::size_t causal = 4;
  bool strict_scalars = false;  // float()/eval() without guards (flash_attn classes)
  bool strides = false;         // q/k/v strides are parameters
  bool dtypes = true;           // dtype_A_B is a parameter
};

SdpaLayout sdpa_layout_of(ModelClass model) {
  switch (model) {
    case ModelClass::kSdpaFlash:
      return {0, false, 3, 4, false, false, true};
    case ModelClass::kSdpaEfficient:
    case ModelClass::kSdpaCudnn:
      return {0, false, 5, 6, false, false, true};
    case ModelClass::kFlashAttn:
      return {0, true, 3, 5, true, true, true};
    case ModelClass::kAiterFlashAttn:
      return {0, true, 3, 5, false, false, false};
    default:
      throw ModelException{ModelError::kUnsupported, "no SDPA layout for this op"};
  }
}

}  // namespace

FormulaNumber sdpa_flops_fwd(const SdpaShape& s, bool causal) {
  const FormulaNumber two = I(2);
  const FormulaNumber qk = s.b * s.h_q * (two * s.n_q * s.n_kv * s.d_qk);
  const FormulaNumber pv = s.b * s.h_q * (two * s.n_q * s.d_v * s.n_kv);
  FormulaNumber total = qk + pv;
  if (causal) {
    if (!py_equal(s.n_q, s.n_kv)) fail("causal=True but N_Q != N_K");
    total = true_div(total, two);
  }
  return total;
}

FormulaNumber sdpa_flops_bwd(const SdpaShape& s, bool causal, bool flash_impl) {
  const FormulaNumber two = I(2);
  const FormulaNumber gqa = floor_div(s.h_q, s.h_kv) - I(1);  // reduce H_Q to H_KV for GQA
  FormulaNumber total = I(0);
  if (flash_impl) total = total + s.b * s.h_q * (two * s.n_q * s.n_kv * s.d_qk);  // recompute S
  total = total + (s.b * s.h_q * (two * s.n_kv * s.n_q * s.d_v) + s.b * s.n_kv * s.d_v * gqa);
  total = total + s.b * s.h_q * (two * s.n_q * s.n_kv * s.d_v);   // dP
  total = total + s.b * s.h_q * (two * s.n_q * s.n_kv * s.d_qk);  // dQ
  total = total + (s.b * s.h_q * (two * s.n_kv * s.n_q * s.d_qk) + s.b * s.n_kv * s.d_qk * gqa);
  if (causal) {
    if (!py_equal(s.n_q, s.n_kv)) fail("causal=True but N_Q != N_K");
    total = true_div(total, two);
  }
  return total;
}

namespace {
PyInt exact(const FormulaNumber& v) {
  if (!v.is_int) fail("attention shape is not an integer");
  return v.i;
}
}  // namespace

PyInt sdpa_elems_fwd(const SdpaShape& s) {
  const PyInt B = exact(s.b), NQ = exact(s.n_q), HQ = exact(s.h_q), NKV = exact(s.n_kv),
              HKV = exact(s.h_kv), DQK = exact(s.d_qk), DV = exact(s.d_v);
  return B * NQ * HQ * DQK + B * NKV * HKV * DQK + B * NKV * HKV * DV + B * NQ * HQ * DV;
}

PyInt sdpa_elems_bwd(const SdpaShape& s) {
  const PyInt B = exact(s.b), NQ = exact(s.n_q), HQ = exact(s.h_q), NKV = exact(s.n_kv),
              HKV = exact(s.h_kv), DQK = exact(s.d_qk), DV = exact(s.d_v);
  // Q, K, V and dO read; dQ, dK, dV written.
  return B * NQ * HQ * DQK + B * NKV * HKV * DQK + B * NKV * HKV * DV + B * NQ * HQ * DV +
         B * NQ * HQ * DQK + B * NKV * HKV * DQK + B * NKV * HKV * DV;
}

FamilyOutput sdpa_model(ModelClass model, std::string_view /*name*/, const OpArgs& args,
                        Direction direction) {
  const SdpaLayout layout = sdpa_layout_of(model);
  const Json& dims = required(args.input_dims, "Input Dims");
  const Json& concrete = required(args.concrete_inputs, "Concrete Inputs");
  Shape qkv[3];
  std::int64_t b[3], h[3], n[3], d[3];
  for (std::size_t i = 0; i < 3; ++i) {
    qkv[i] = shape_of(at(dims, layout.q + i, "Input Dims"), "q/k/v");
    if (qkv[i].size() < 4) fail("q/k/v rank < 4");
    b[i] = qkv[i][0];
    h[i] = qkv[i][layout.bnhd ? 2 : 1];
    n[i] = qkv[i][layout.bnhd ? 1 : 2];
    d[i] = qkv[i][3];
  }
  if (b[0] != b[1] || b[0] != b[2]) fail("Batch sizes do not match");
  if (h[1] != h[2]) fail("Head sizes do not match for K and V");
  if (n[1] != n[2]) fail("Length sizes do not match for K and V");
  if (d[0] != d[1]) fail("Head dimensions do not match for Q and K");

  PyValue dtype_a_b;
  if (layout.dtypes) dtype_a_b = slice_tuple(required(args.input_types, "Input type"), 0, 2);
  std::vector<PyValue> strides;
  if (layout.strides) {
    const Json& all = required(args.input_strides, "Input Strides");
    for (std::size_t i = 0; i < 3; ++i)
      strides.push_back(py_tuple(at(all, layout.q + i, "Input Strides")));
  }
  double dropout = 0.0;
  bool causal = false;
  const std::string& dropout_text = string_at(concrete, layout.dropout, "Concrete Inputs");
  const std::string& causal_text = string_at(concrete, layout.causal, "Concrete Inputs");
  if (layout.strict_scalars) {
    dropout = py_float_of(dropout_text);
    causal = eval_bool(causal_text);
  } else {
    if (dropout_text != "" && dropout_text != "None") {
      if (const auto v = try_py_float(dropout_text)) dropout = *v;
    }
    causal =
        (causal_text != "" && causal_text != "None") && text::ascii_lower(causal_text) == "true";
  }

  FamilyOutput out;
  out.params.emplace_back("B", py_int(b[0]));
  out.params.emplace_back("N_Q", py_int(n[0]));
  out.params.emplace_back("H_Q", py_int(h[0]));
  out.params.emplace_back("N_KV", py_int(n[1]));
  out.params.emplace_back("H_KV", py_int(h[1]));
  out.params.emplace_back("d_h_qk", py_int(d[0]));
  out.params.emplace_back("d_h_v", py_int(d[2]));
  if (layout.strides) {
    out.params.emplace_back("q_stride", strides[0]);
    out.params.emplace_back("k_stride", strides[1]);
    out.params.emplace_back("v_stride", strides[2]);
  }
  out.params.emplace_back("dropout", py_float(dropout));
  out.params.emplace_back("causal", py_bool(causal));
  out.params.emplace_back("flash_impl", py_bool(model != ModelClass::kSdpaEfficient &&
                                                model != ModelClass::kSdpaCudnn));
  if (layout.dtypes) {
    out.params.emplace_back("dtype_A_B", dtype_a_b);
    const auto& dt = dtype_a_b.items();
    if (!dt.empty() && dt[0].is_string()) {
      out.precision_dtype = dt[0].as_string();
      out.has_precision_dtype = true;
    }
  }

  const SdpaShape shape{I(b[0]), I(n[0]), I(h[0]), I(n[1]), I(h[1]), I(d[0]), I(d[2])};
  const bool flash_impl = out.params[layout.strides ? 12 : 9].second.as_bool();
  if (direction == Direction::kForward) {
    out.flops = sdpa_flops_fwd(shape, causal);
    out.bytes = I(sdpa_elems_fwd(shape) * 2);  // bytes_per_element defaults to 2
  } else {
    out.flops = sdpa_flops_bwd(shape, causal, flash_impl);
    out.bytes = I(sdpa_elems_bwd(shape) * 2);
  }
  return out;
}

}  // namespace loupe::core::prepare::perf::detail
