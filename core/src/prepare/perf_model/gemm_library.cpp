// Library GEMM entry points (docs/deviations.md, "Serving-engine ops"): Transformer Engine's
// te_gemm_ts and its v2 pseudo GEMMs, vLLM's dynamic-quant GEMM, Primus-Turbo's hipBLASLt
// FP8/MXFP4 GEMMs and AITER's MXFP4 a4w4 GEMM. Each is one Y[M,N] = A[M,K] · B[K,N] with
// flops 2·M·N·K (+ M·N with a bias), the GEMM parameters of docs/contracts/trace_model.md
// §3.9.4, and the argument layout, transpose flags and operand widths of its kernel. MXFP4
// operands hold two values per byte and carry one E8M0 scale per 32 values of K.
#include "loupe/text.hpp"
#include "model_support.hpp"

namespace loupe::core::prepare::perf::detail {
namespace {

// One GEMM as read from an op's arguments.
struct LibGemm {
  std::int64_t m = 0, n = 0, k = 0;
  bool bias = false;
  PyValue stride_a = py_none(), stride_b = py_none();
  std::vector<std::string> dtypes;          // dtype_A_B (2 or 4 entries)
  std::optional<PyValue> scale_a, scale_b;  // dtype_scaleA/B params (None when absent)
};

std::int64_t gemm_dim(const Shape& s, std::size_t i) {
  if (i >= s.size()) fail("GEMM operand has too few dimensions");
  return s[i];
}

// tuple(Input Strides[i]); None when the op records no strides (KeyError), and for the
// hipBLASLt/AITER classes also when the list is short (IndexError).
PyValue stride_or_none(const OpArgs& args, std::size_t i, bool short_is_none) {
  const Json& all = args.input_strides;
  if (all.is_null()) return py_none();
  if (short_is_none && (!all.is_array() || i >= all.size())) return py_none();
  return py_tuple(at(all, i, "Input Strides"));
}

// Python's parse_bool of a Concrete Inputs entry (absent = False).
bool flag(const Json& concrete, std::size_t i) {
  if (!concrete.is_array() || i >= concrete.size()) return false;
  const Json& v = concrete.as_array()[i];
  if (v.is_null()) return false;
  if (v.is_bool()) return v.as_bool();
  if (!v.is_string()) return true;
  std::string s = text::ascii_lower(v.as_string());
  s.erase(0, s.find_first_not_of(" \t\n\r"));
  s.erase(s.find_last_not_of(" \t\n\r") + 1);
  return !(s == "false" || s == "0" || s.empty());  // "true", "1", or any other text
}

// vllm::gemm_with_dynamic_quant(x[M,K], weight[N,K], …): A and B are the first two 2-D shapes.
LibGemm vllm_dynamic_quant(const OpArgs& args) {
  const Json& dims = args.input_dims;
  std::optional<Shape> a, b;
  if (dims.is_array()) {
    for (const Json& d : dims.as_array()) {
      if (!d.is_array() || d.size() != 2) continue;
      if (!a) {
        a = shape_of(d, "A");
      } else {
        b = shape_of(d, "B");
        break;
      }
    }
    if ((!a || !b) && dims.size() >= 2) {
      if (!a && dims.as_array()[0].is_array()) a = shape_of(dims.as_array()[0], "A");
      if (!b && dims.as_array()[1].is_array()) b = shape_of(dims.as_array()[1], "B");
    }
  }
  if (!a || !b || a->size() != 2 || b->size() != 2) {
    fail("vllm::gemm_with_dynamic_quant missing 2D A,B shapes in Input Dims");
  }
  const Json& types = args.input_types;
  if (!types.is_array() || types.size() < 2) {
    fail("vllm::gemm_with_dynamic_quant missing A,B dtypes in 'Input type'");
  }
  LibGemm g;
  g.m = (*a)[0];
  g.k = (*a)[1];
  g.n = (*b)[0];
  g.dtypes = {string_at(types, 0, "Input type"), string_at(types, 1, "Input type")};
  g.stride_a = stride_or_none(args, 0, false);
  g.stride_b = stride_or_none(args, 1, false);
  return g;
}

// tex_ts::te_gemm_ts(A, …, transa [4], B [5], …, transb [9], D [10], …, bias [14], …): cuBLASLt's
// column-major convention, so A untransposed is [K, M].
LibGemm te_gemm_ts(const OpArgs& args) {
  const Json& dims = required(args.input_dims, "Input Dims");
  at(dims, 10, "Input Dims");  // the output D must be recorded
  const Shape a = shape_of(at(dims, 0, "Input Dims"), "A");
  const Shape b = shape_of(at(dims, 5, "Input Dims"), "B");
  const Json& concrete = required(args.concrete_inputs, "Concrete Inputs");
  const bool trans_a = string_at(concrete, 4, "Concrete Inputs") == "1";
  const bool trans_b = string_at(concrete, 9, "Concrete Inputs") == "1";
  LibGemm g;
  g.m = gemm_dim(a, trans_a ? 0 : 1);
  g.k = gemm_dim(a, trans_a ? 1 : 0);
  g.n = gemm_dim(b, trans_b ? 1 : 0);
  g.bias = string_at(concrete, 14, "Concrete Inputs") != "";
  const Json& types = required(args.input_types, "Input type");
  for (const std::size_t i : {0, 5, 10, 18}) g.dtypes.push_back(string_at(types, i, "Input type"));
  g.stride_a = stride_or_none(args, 0, false);
  g.stride_b = stride_or_none(args, 5, false);
  return g;
}

// Transformer Engine v2 pseudo GEMMs: A [M, K] @ B [K, N].
LibGemm te_pseudo_gemm(const OpArgs& args) {
  const Json& dims = required(args.input_dims, "Input Dims");
  const Shape a = shape_of(at(dims, 0, "Input Dims"), "A");
  const Shape b = shape_of(at(dims, 1, "Input Dims"), "B");
  LibGemm g;
  g.m = gemm_dim(a, 0);
  g.n = gemm_dim(b, 1);
  g.k = gemm_dim(a, 1);
  const Json& types = required(args.input_types, "Input type");
  g.dtypes = {string_at(types, 0, "Input type"), string_at(types, 1, "Input type")};
  g.stride_a = stride_or_none(args, 0, false);
  g.stride_b = stride_or_none(args, 1, false);
  return g;
}

// Scaled GEMMs with (A, scaleA) and (B, scaleB) operands. hipBLASLt: (A, scaleA_inv, B,
// scaleB_inv, out_dtype, transA [5], transB [6], transC [7], …), transC swapping the operands;
// AITER a4w4: (A, B, scaleA, scaleB, …), always NT. FP4 shapes hold K / 2.
LibGemm scaled_gemm(const OpArgs& args, bool aiter, bool fp4) {
  const Json& dims = required(args.input_dims, "Input Dims");
  const std::size_t ib = aiter ? 1 : 2;
  Shape a = shape_of(at(dims, 0, "Input Dims"), "A");
  Shape b = shape_of(at(dims, ib, "Input Dims"), "B");
  bool trans_a = false, trans_b = true;
  if (!aiter) {
    const Json& concrete = args.concrete_inputs;
    trans_a = flag(concrete, 5);
    trans_b = flag(concrete, 6);
    if (flag(concrete, 7)) {
      std::swap(a, b);
      const bool was_a = trans_a;
      trans_a = !trans_b;
      trans_b = !was_a;
    }
  }
  LibGemm g;
  g.m = gemm_dim(a, trans_a ? 1 : 0);
  g.k = gemm_dim(a, trans_a ? 0 : 1) * (fp4 ? 2 : 1);
  g.n = gemm_dim(b, trans_b ? 0 : 1);
  const Json& types = required(args.input_types, "Input type");
  const std::size_t isa = aiter ? 2 : 1, isb = 3;
  g.dtypes = {string_at(types, 0, "Input type"), string_at(types, ib, "Input type")};
  const auto scale = [&](std::size_t i) {
    return types.size() > i ? py(at(types, i, "Input type")) : py_none();
  };
  g.scale_a = scale(isa);
  g.scale_b = scale(isb);
  g.stride_a = stride_or_none(args, 0, true);
  g.stride_b = stride_or_none(args, ib, true);
  return g;
}

std::optional<PyInt> bpe_of(const std::string& dtype) {
  const auto b = bytes_per_element(dtype);
  return b ? std::optional<PyInt>(*b) : std::nullopt;
}

// GEMM bytes: A, B, output and (1 x N) bias; None when any width is unknown.
std::optional<FormulaNumber> gemm_bytes(const LibGemm& g, std::optional<PyInt> a,
                                        std::optional<PyInt> b, std::optional<PyInt> bias,
                                        std::optional<PyInt> out) {
  if (!a || !b || !bias || !out) return std::nullopt;
  const PyInt M = g.m, N = g.n, K = g.k;
  return I(M * K * *a + K * N * *b + M * N * *out + (g.bias ? N : 0) * *bias);
}

// MXFP4 bytes: packed operands, one scale per 32 values of K per row (1 byte unless the scale
// dtype says otherwise), a 16-bit output.
FormulaNumber mxfp4_bytes(const LibGemm& g, PyInt bpe_a, PyInt bpe_b) {
  const PyInt M = g.m, N = g.n, K = g.k;
  const PyInt scales_per_row = floor_div(I(K + 31), I(32)).i;
  const auto scale_bpe = [](const std::optional<PyValue>& dtype) -> PyInt {
    if (!dtype || !dtype->is_string()) return 1;
    const auto b = bytes_per_element(dtype->as_string());
    return b && *b != 0 ? *b : 1;
  };
  const PyInt half_k = floor_div(I(K), I(2)).i;
  return I(M * half_k * bpe_a + N * half_k * bpe_b + M * scales_per_row * scale_bpe(g.scale_a) +
           N * scales_per_row * scale_bpe(g.scale_b) + M * N * 2);
}

std::optional<FormulaNumber> bytes_of(ModelClass model, const LibGemm& g) {
  const auto a = bpe_of(g.dtypes[0]);
  switch (model) {
    case ModelClass::kVllmGemmDynamicQuant:  // every operand in A's width
      return gemm_bytes(g, a, a, a, a);
    case ModelClass::kTeGemmTs:
      return gemm_bytes(g, a, bpe_of(g.dtypes[1]), bpe_of(g.dtypes[3]), bpe_of(g.dtypes[2]));
    case ModelClass::kTePseudoGemm:  // output always 16-bit
      if (g.dtypes[0] != g.dtypes[1]) fail("Data types of A and B are different");
      return gemm_bytes(g, a, a, a, PyInt{2});
    default: {
      const auto b = bpe_of(g.dtypes[1]);
      if (!a || !b) fail("Data types of A and B are not supported");
      if (model == ModelClass::kHipblasltGemmFp8) {
        return gemm_bytes(g, a, b, a, *a == 1 ? PyInt{2} : *a);  // FP8 in, 16-bit out
      }
      return mxfp4_bytes(g, *a, *b);
    }
  }
}

LibGemm read_lib_gemm(ModelClass model, const OpArgs& args) {
  switch (model) {
    case ModelClass::kVllmGemmDynamicQuant:
      return vllm_dynamic_quant(args);
    case ModelClass::kTeGemmTs:
      return te_gemm_ts(args);
    case ModelClass::kTePseudoGemm:
      return te_pseudo_gemm(args);
    case ModelClass::kHipblasltGemmFp8:
      return scaled_gemm(args, false, false);
    case ModelClass::kHipblasltGemmFp4:
      return scaled_gemm(args, false, true);
    case ModelClass::kAiterGemmA4W4:
      return scaled_gemm(args, true, true);
    default:
      throw ModelException{ModelError::kUnsupported, "no GEMM layout for this op"};
  }
}

}  // namespace

FamilyOutput gemm_library_model(ModelClass model, std::string_view name, const OpArgs& args,
                                Direction direction) {
  const LibGemm g = read_lib_gemm(model, args);
  FamilyOutput out;
  out.params.emplace_back("M", py_int(g.m));
  out.params.emplace_back("N", py_int(g.n));
  out.params.emplace_back("K", py_int(g.k));
  out.params.emplace_back("bias", py_bool(g.bias));
  out.params.emplace_back("stride_A", g.stride_a);
  out.params.emplace_back("stride_B", g.stride_b);
  std::vector<PyValue> dtypes;
  for (const auto& d : g.dtypes) dtypes.push_back(py_str(d));
  out.params.emplace_back("dtype_A_B", tuple_of(std::move(dtypes)));
  if (g.scale_a) {
    out.params.emplace_back("dtype_scaleA", *g.scale_a);
    out.params.emplace_back("dtype_scaleB", *g.scale_b);
  }
  out.params.emplace_back("B", py_int(1));
  if (auto transpose = transpose_from_kernels(args.kernel_names)) {
    out.params.emplace_back("transpose", std::move(*transpose));
  }
  if (!g.dtypes[0].empty()) {
    out.precision_dtype = g.dtypes[0];
    out.has_precision_dtype = true;
  }
  if (direction == Direction::kBackward) {
    // vLLM's and AITER's classes inherit a backward byte formula that needs an element size
    // nobody passes (TypeError); the others raise NotImplementedError.
    if (model == ModelClass::kVllmGemmDynamicQuant || model == ModelClass::kAiterGemmA4W4) {
      fail(std::string("no backward bytes for ").append(name));
    }
    not_implemented(std::string("Backward pass for ").append(name).append(" is not defined."));
  }
  const PyInt M = g.m, N = g.n, K = g.k;
  out.flops = I(2 * M * N * K + (g.bias ? M * N : 0));
  out.bytes = bytes_of(model, g);
  return out;
}

}  // namespace loupe::core::prepare::perf::detail
