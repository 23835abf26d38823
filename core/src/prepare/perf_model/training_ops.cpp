// Training-side autograd functions TraceLens models (docs/deviations.md, "Serving-engine ops"):
//   MoEDispatch / MoECombine (MoE_comm): all-to-all of tokens [T, H]; no flops, bytes T·H·width,
//     the same for the backward;
//   DaoAILab causal_conv1d (SSM): depthwise conv of x [B, C, L] with w [C, k]: flops 2·B·C·L·k,
//     bytes x + w + y (+ bias C);
//   FusedRoPEFunc (RoPE): t [S, B, H, D]: 3 flops per element, each element read and written;
//   CrossEntropyFunction: logits [B, …, V]: 5·B·V flops, bytes logits + int64 targets B + fp32
//     losses B;
//   MambaSplitConv1dScanCombinedFn (Mamba-2 SSD, SSM): the conv1d and the four matmul steps of
//     the chunked scan, bytes input + conv weight and bias + per-head parameters + output; the
//     backward is costed like the forward.
// Unknown activation widths count 2 bytes (bf16), as TraceLens's classes do.
#include "model_support.hpp"

namespace loupe::core::prepare::perf::detail {
namespace {

std::int64_t dim(const Shape& s, std::size_t i) {
  if (i >= s.size()) fail("operand has too few dimensions");
  return s[i];
}

// Width of Input type[0]: bf16 without types, 2 when the dtype is empty or unknown.
PyInt activation_bpe(const Json& types) {
  if (!types.is_array() || types.size() == 0) return 2;
  const std::string& dtype = string_at(types, 0, "Input type");
  return bytes_per_element(dtype).value_or(2);
}

// The compute spec's dtype: Input type[0]; IndexError on an empty list, None without types.
void precision_from_first(const OpArgs& args, FamilyOutput& out, bool empty_fails) {
  const Json& types = args.input_types;
  if (!types.is_array()) return;
  if (types.size() == 0) {
    if (empty_fails) fail("Input type is empty");
    return;
  }
  const std::string& dtype = string_at(types, 0, "Input type");
  if (!dtype.empty()) {
    out.precision_dtype = dtype;
    out.has_precision_dtype = true;
  }
}

FamilyOutput moe_comm(const OpArgs& args) {
  const Json& dims = args.input_dims;
  const Json& types = args.input_types;
  Shape tokens;
  if (dims.is_array() && dims.size() > 0) tokens = shape_of(at(dims, 0, "Input Dims"), "tokens");
  const std::string dtype =
      types.is_array() && types.size() > 0 ? string_at(types, 0, "Input type") : "";
  const std::optional<int> bpe = dtype.empty() ? std::nullopt : bytes_per_element(dtype);
  FamilyOutput out;
  out.params.emplace_back("num_tokens", tokens.size() >= 1 ? py_int(tokens[0]) : py_none());
  out.params.emplace_back("hidden_dim", tokens.size() >= 2 ? py_int(tokens[1]) : py_none());
  out.params.emplace_back("bpe", bpe ? py_int(*bpe) : py_none());
  out.flops = I(0);
  if (tokens.size() >= 2 && bpe) out.bytes = I(PyInt{tokens[0]} * tokens[1] * *bpe);
  return out;  // no compute spec: a communication has none
}

FamilyOutput causal_conv1d(const OpArgs& args) {
  const Json& dims = required(args.input_dims, "Input Dims");
  const Shape x = shape_of(at(dims, 0, "Input Dims"), "x");
  const Shape w = shape_of(at(dims, 1, "Input Dims"), "weight");
  const std::int64_t batch = dim(x, 0), channels = dim(x, 1), len = dim(x, 2), k = dim(w, 1);
  const bool bias =
      dims.size() > 2 && dims.as_array()[2].is_array() && dims.as_array()[2].size() > 0;
  FamilyOutput out;
  out.params.emplace_back("batch", py_int(batch));
  out.params.emplace_back("channels", py_int(channels));
  out.params.emplace_back("seq_len", py_int(len));
  out.params.emplace_back("kernel_size", py_int(k));
  out.params.emplace_back("has_bias", py_bool(bias));
  const PyInt bpe = activation_bpe(args.input_types);
  precision_from_first(args, out, true);
  const PyInt B = batch, C = channels, L = len, K = k;
  out.flops = I(2 * B * C * L * K);
  out.bytes = I(B * C * L * bpe + C * K * bpe + B * C * L * bpe + (bias ? C * bpe : 0));
  return out;
}

FamilyOutput fused_rope(const OpArgs& args) {
  const Shape t = shape_of(at(required(args.input_dims, "Input Dims"), 0, "Input Dims"), "t");
  FamilyOutput out;
  out.params.emplace_back("seq_len", py_int(dim(t, 0)));
  out.params.emplace_back("batch", py_int(dim(t, 1)));
  out.params.emplace_back("heads", py_int(dim(t, 2)));
  out.params.emplace_back("head_dim", py_int(dim(t, 3)));
  out.params.emplace_back("num_elements", py_int(static_cast<std::int64_t>(prod(t))));
  precision_from_first(args, out, false);
  out.flops = I(3 * prod(t));
  out.bytes = I(2 * prod(t) * activation_bpe(args.input_types));
  return out;
}

FamilyOutput cross_entropy(const OpArgs& args) {
  const Json& logits = at(required(args.input_dims, "Input Dims"), 0, "Input Dims");
  const Shape shape = shape_of(logits, "logits");
  if (shape.empty()) fail("logits is a scalar");
  const std::int64_t batch = shape.front(), vocab = shape.back();
  FamilyOutput out;
  out.params.emplace_back("batch", py_int(batch));
  out.params.emplace_back("vocab_size", py_int(vocab));
  out.params.emplace_back("logits_shape", py(logits));
  precision_from_first(args, out, false);
  const PyInt B = batch, V = vocab;
  out.flops = I(5 * B * V);
  out.bytes = I(prod(shape) * activation_bpe(args.input_types) + B * 8 + B * 4);
  return out;
}

// (zxbcdt [B, T, D], conv_weight [Cc, k], conv_bias, dt_bias [H], A [H], D [H], chunk_size [6],
// …, headdim [15], ngroups [16]); the state size N follows from D = 2·H·P + 2·G·N + H.
FamilyOutput mamba_ssd(const OpArgs& args) {
  const Json& dims = required(args.input_dims, "Input Dims");
  const Shape z = shape_of(at(dims, 0, "Input Dims"), "zxbcdt");
  const Shape w = shape_of(at(dims, 1, "Input Dims"), "conv1d_weight");
  const Shape dt_bias = shape_of(at(dims, 3, "Input Dims"), "dt_bias");
  const Json& concrete = args.concrete_inputs;
  const auto scalar = [&](std::size_t i, std::int64_t fallback) {
    if (!concrete.is_array() || concrete.size() <= i) return fallback;
    const std::string& text = string_at(concrete, i, "Concrete Inputs");
    return text.empty() ? fallback : py_int_of(text);
  };
  const PyInt B = dim(z, 0), T = dim(z, 1), D = dim(z, 2), Cc = dim(w, 0), k = dim(w, 1);
  const PyInt H = dim(dt_bias, 0);
  const PyInt C = scalar(6, 128), P = scalar(15, 64), G = scalar(16, 1);
  const PyInt d_inner = H * P;
  const PyInt numerator = D - 2 * d_inner - H;
  if (G == 0) fail("integer division or modulo by zero");
  if (numerator <= 0 || numerator % (2 * G) != 0) fail("Cannot derive d_state");
  const PyInt N = numerator / (2 * G);

  FamilyOutput out;
  add_int_params(out.params, {{"B", B},
                              {"T", T},
                              {"H", H},
                              {"P", P},
                              {"G", G},
                              {"N", N},
                              {"C", C},
                              {"d_inner", d_inner},
                              {"d_conv", k},
                              {"conv_channels", Cc},
                              {"combined_dim", D}});
  precision_from_first(args, out, true);
  out.flops = I(2 * B * Cc * T * k + 2 * B * G * T * C * N + 2 * B * H * T * C * P +
                2 * B * H * T * N * P + 2 * B * H * T * N * P);
  const Json& types = args.input_types;
  const PyInt bpe = activation_bpe(types);
  // A parameter slot's width, when its dtype is recorded and known.
  const auto slot_bpe = [&](std::size_t i, PyInt fallback) -> PyInt {
    if (!types.is_array() || types.size() <= i) return fallback;
    const std::string& dtype = string_at(types, i, "Input type");
    return dtype.empty() ? fallback : PyInt{bytes_per_element(dtype).value_or(fallback)};
  };
  const PyInt params = H * slot_bpe(3, 4) + H * slot_bpe(4, 4) + H * slot_bpe(5, bpe);
  out.bytes = I(B * T * D * bpe + Cc * k * bpe + Cc * bpe + params + B * T * d_inner * bpe);
  return out;
}

}  // namespace

FamilyOutput training_op_model(ModelClass model, std::string_view name, const OpArgs& args,
                               Direction direction) {
  // Only the MoE communication and Mamba classes define backward formulas (the forward ones).
  const bool same_backward = model == ModelClass::kMoeComm || model == ModelClass::kMambaSsd;
  if (direction == Direction::kBackward && !same_backward) {
    fail(std::string("no backward model for ").append(name));
  }
  switch (model) {
    case ModelClass::kMoeComm:
      return moe_comm(args);
    case ModelClass::kCausalConv1d:
      return causal_conv1d(args);
    case ModelClass::kFusedRopeFunc:
      return fused_rope(args);
    case ModelClass::kCrossEntropy:
      return cross_entropy(args);
    case ModelClass::kMambaSsd:
      return mamba_ssd(args);
    default:
      throw ModelException{ModelError::kUnsupported, "no training-op layout for this op"};
  }
}

}  // namespace loupe::core::prepare::perf::detail
