// Serving-engine GEMM extensions (docs/deviations.md, "Serving-engine ops"): AITER's GEMM
// kernels and the SGLang / vLLM wrappers around them. Every one is Y[M,N] = X[M,K] @ W[N,K]^T
// (batched: per batch), flops 2*M*N*K (+ M*N with a bias); what differs is where M, N, K and
// the dtypes sit in the op's arguments and how many bytes an element of each operand takes
// (FP4 operands are packed two per byte: 0.5).
#include "model_support.hpp"

namespace loupe::core::prepare::perf::detail {
namespace {

// One GEMM as the model reads it from the op's arguments.
struct ExtGemm {
  std::int64_t batch = 1;
  std::int64_t m = 0;
  std::int64_t n = 0;
  std::int64_t k = 0;
  bool bias = false;
  std::string dtype_a, dtype_b, dtype_out;
  Params extra;  // params after dtype_A_B (block-scale details)
  // Bytes per element of A, B, output and bias; nullopt = unknown (bytes None).
  std::optional<FormulaNumber> bpe_a, bpe_b, bpe_out, bpe_bias;
  std::optional<std::string> precision;  // named by the model (fp4), else from dtype_a
  bool precision_from_b = false;         // batched a8w8 names its precision by W's dtype
};

std::optional<FormulaNumber> bpe(std::string_view dtype) {
  const auto b = bytes_per_element(dtype);
  if (!b) return std::nullopt;
  return I(*b);
}
const FormulaNumber kHalfByte = F(0.5);

std::string type_or(const Json& types, std::size_t i, std::string fallback) {
  if (types.is_array() && i < types.size()) return string_at(types, i, "Input type");
  return fallback;
}

std::int64_t dim(const Shape& shape, std::size_t i, std::string_view what) {
  if (i >= shape.size()) fail(std::string(what).append(" has too few dimensions"));
  return shape[i];
}

ExtGemm read_gemm(ModelClass model, const OpArgs& args) {
  const Json& dims = required(args.input_dims, "Input Dims");
  ExtGemm g;
  if (model == ModelClass::kAiterGemmA8W8Blockscale) {
    // Input type may be absent: every dtype then reads "".
    const Json& types = args.input_types;
    const Shape x = shape_of(at(dims, 0, "Input Dims"), "x");
    const Shape w = shape_of(at(dims, 1, "Input Dims"), "w");
    g.m = dim(x, 0, "x");
    g.k = dim(x, 1, "x");
    g.n = dim(w, 0, "w");
    g.dtype_a = type_or(types, 0, "");
    g.dtype_b = type_or(types, 1, "");
    g.dtype_out = "c10::bfloat16";
    if (dims.size() > 3) {
      // Block sizes from the scale shapes: ceil(K / x_scale[-1]), ceil(N / w_scale[0]).
      const Shape x_scale = shape_of(at(dims, 2, "Input Dims"), "x_scale");
      const Shape w_scale = shape_of(at(dims, 3, "Input Dims"), "w_scale");
      const auto ceil_div = [](std::int64_t a, std::int64_t b) {
        // Python's -(-a // b) with floor division.
        const std::int64_t q = -a / b;
        const std::int64_t floor_q = (q * b != -a && ((-a < 0) != (b < 0))) ? q - 1 : q;
        return -floor_q;
      };
      const PyValue block_k = (!x_scale.empty() && x_scale.back() != 0)
                                  ? py_int(ceil_div(g.k, x_scale.back()))
                                  : py_none();
      const PyValue block_n = (!w_scale.empty() && w_scale.front() != 0)
                                  ? py_int(ceil_div(g.n, w_scale.front()))
                                  : py_none();
      g.extra.emplace_back("quant_scheme", py_str("a8w8_blockscale"));
      g.extra.emplace_back("quant_granularity", py_str("per_block"));
      g.extra.emplace_back("block_k", block_k);
      g.extra.emplace_back("block_n", block_n);
      g.extra.emplace_back("scale_dtype", py_str(type_or(types, 2, "float32")));
    }
    g.extra.emplace_back("output_shape", tuple_of({py_int(g.m), py_int(g.n)}));
    g.extra.emplace_back("output_dtype", py_str("c10::bfloat16"));
    g.bpe_a = bpe(g.dtype_a);
    g.bpe_b = bpe(g.dtype_b);
    g.bpe_out = g.bpe_bias = bpe(g.dtype_out);
    return g;
  }

  const Json& types = required(args.input_types, "Input type");
  if (model == ModelClass::kAiterBatchedGemmA16Wfp4 || model == ModelClass::kAiterBatchedGemmA8W8) {
    const Shape x = shape_of(at(dims, 0, "Input Dims"), "x");
    const Shape w = shape_of(at(dims, 1, "Input Dims"), "w");
    g.dtype_a = string_at(types, 0, "Input type");
    g.dtype_b = string_at(types, 1, "Input type");
    g.dtype_out = "c10::bfloat16";
    if (model == ModelClass::kAiterBatchedGemmA16Wfp4) {
      // x[B, M, K] bf16, w[B, N, K/2] fp4.
      g.batch = dim(x, 0, "x");
      g.m = dim(x, 1, "x");
      g.n = dim(w, 1, "w");
      g.k = dim(x, 2, "x");
      g.bpe_a = bpe(g.dtype_a);
      g.bpe_b = kHalfByte;
      g.precision = "fp4";
    } else {
      // w[B, N, K]; x is [B, M, K] or [M, B, K].
      g.batch = dim(w, 0, "w");
      g.n = dim(w, 1, "w");
      g.k = dim(x, 2, "x");
      g.m = dim(x, 0, "x") == g.batch ? dim(x, 1, "x") : dim(x, 0, "x");
      g.bpe_a = bpe(g.dtype_a);
      g.bpe_b = bpe(g.dtype_b);
      g.precision_from_b = true;
    }
    g.bpe_out = g.bpe_bias = bpe(g.dtype_out);
    return g;
  }

  const Shape x = shape_of(at(dims, 0, "Input Dims"), "x");
  const Shape w = shape_of(at(dims, 1, "Input Dims"), "w");
  g.m = dim(x, 0, "x");
  g.n = dim(w, 0, "w");
  g.k = dim(x, 1, "x");
  g.dtype_a = string_at(types, 0, "Input type");
  g.dtype_b = string_at(types, 1, "Input type");
  switch (model) {
    case ModelClass::kAiterGemmA16W16:
      // (x, w, bias, dtype): Input type[3] is the dtype scalar, the output follows x.
      g.bias = dims.size() > 2 && !shape_of(at(dims, 2, "Input Dims"), "bias").empty();
      g.dtype_out = g.dtype_a;
      break;
    case ModelClass::kAiterGemmA16W16Asm: {
      // (x, w, y, workspace): y's dtype when it has a size, else x's.
      const std::string y = types.size() > 2 ? string_at(types, 2, "Input type") : "";
      g.dtype_out = types.size() > 2 && bytes_per_element(y) ? y : g.dtype_a;
      break;
    }
    case ModelClass::kAiterGemmAfp4Wfp4:
      g.k = dim(x, 1, "x") * 2;
      g.dtype_out = "c10::bfloat16";
      g.precision = "fp4";
      break;
    default:  // kAiterGemmA16W16Atomic: (x, w, ..., y)
      g.dtype_out = type_or(types, 3, "c10::bfloat16");
      break;
  }
  if (model == ModelClass::kAiterGemmAfp4Wfp4) {
    g.bpe_a = g.bpe_b = kHalfByte;
  } else {
    g.bpe_a = bpe(g.dtype_a);
    g.bpe_b = bpe(g.dtype_b);
  }
  g.bpe_out = g.bpe_bias = bpe(g.dtype_out);
  return g;
}

}  // namespace

FamilyOutput gemm_extension_model(ModelClass model, std::string_view name, const OpArgs& args,
                                  Direction direction) {
  ExtGemm g = read_gemm(model, args);
  FamilyOutput out;
  out.params.emplace_back("B", py_int(g.batch));
  out.params.emplace_back("M", py_int(g.m));
  out.params.emplace_back("N", py_int(g.n));
  out.params.emplace_back("K", py_int(g.k));
  out.params.emplace_back("bias", py_bool(g.bias));
  out.params.emplace_back("dtype_A_B",
                          tuple_of({py_str(g.dtype_a), py_str(g.dtype_b), py_str(g.dtype_out)}));
  for (auto& p : g.extra) out.params.push_back(std::move(p));
  if (auto transpose = transpose_from_kernels(args.kernel_names)) {
    out.params.emplace_back("transpose", std::move(*transpose));
  }
  if (g.precision) {
    out.precision = compute_precision(*g.precision);
  } else {
    // An unmapped or empty dtype names no precision (empty Compute Spec).
    out.precision_dtype = g.precision_from_b ? g.dtype_b : g.dtype_a;
    out.has_precision_dtype = true;
  }
  if (direction == Direction::kBackward) {
    not_implemented(std::string("Backward pass for ").append(name).append(" is not defined."));
  }

  const PyInt B = g.batch, M = g.m, N = g.n, K = g.k;
  const bool batched =
      model == ModelClass::kAiterBatchedGemmA16Wfp4 || model == ModelClass::kAiterBatchedGemmA8W8;
  out.flops = I((batched ? B : 1) * (2 * M * N * K + (g.bias ? M * N : 0)));
  if (g.bpe_a && g.bpe_b && g.bpe_out && g.bpe_bias) {
    const FormulaNumber per_batch = I(M * K) * *g.bpe_a + I(K * N) * *g.bpe_b +
                                    I(M * N) * *g.bpe_out + I(g.bias ? N : 0) * *g.bpe_bias;
    out.bytes = batched ? I(B) * per_batch : per_batch;
  }
  return out;
}

}  // namespace loupe::core::prepare::perf::detail
