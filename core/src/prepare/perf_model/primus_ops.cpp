// Primus / Primus-Turbo training kernels (docs/deviations.md, "Serving-engine ops"):
//   quantize_fp8_tensorwise   (UnaryElementwise sheet): bf16 [M, N] -> FP8; one flop per
//                              element, bytes M·N·(input width + 1);
//   quantize_mxfp4_dual       (UnaryElementwise sheet): bf16 [M, N] -> row- and column-wise
//                              MXFP4 (two values per byte, each rounded up) with their E8M0
//                              scales (one byte per 32 values along the row / the column);
//   fused_ln_modulate{,_backward} (Normalization sheet): LayerNorm + scale/shift of
//                              x [T, B, H] with scale/shift [B, H]; 12 (15 backward) flops per
//                              element, bytes below.
#include "model_support.hpp"

namespace loupe::core::prepare::perf::detail {
namespace {

// tuple(Input Strides[0]), None when absent or empty (KeyError / IndexError).
PyValue first_stride(const OpArgs& args) {
  const Json& s = args.input_strides;
  if (!s.is_array() || s.size() == 0) return py_none();
  return py_tuple(at(s, 0, "Input Strides"));
}

FamilyOutput quantize(ModelClass model, const OpArgs& args) {
  const Shape shape = shape_of(at(required(args.input_dims, "Input Dims"), 0, "Input Dims"), "x");
  const std::string dtype_in = string_at(required(args.input_types, "Input type"), 0, "Input type");
  const bool mxfp4 = model == ModelClass::kPrimusQuantizeMxfp4Dual;
  const std::string dtype_out = mxfp4 ? "c10::Float4_e2m1fn_x2" : "c10::Float8_e4m3fnuz";
  FamilyOutput out;
  out.params.emplace_back("op_shape", py_tuple(shape));
  out.params.emplace_back("dtype_in_out", tuple_of({py_str(dtype_in), py_str(dtype_out)}));
  out.params.emplace_back("stride_input", first_stride(args));
  out.params.emplace_back("stride_output", py_none());
  if (!dtype_in.empty()) {
    out.precision_dtype = dtype_in;
    out.has_precision_dtype = true;
  }
  const PyInt elems = prod(shape);
  out.flops = I(elems);
  const auto bpe_in = bytes_per_element(dtype_in);
  if (!mxfp4) {
    if (bpe_in) out.bytes = I(elems * *bpe_in + elems * 1);
    return out;
  }
  if (shape.size() != 2) fail("quantize_mxfp4_dual input must be [M, N]");
  if (!bpe_in) return out;
  const PyInt M = shape[0], N = shape[1];
  const PyInt packed = (M * N + 1) / 2;  // one of the two FP4 copies
  out.bytes = I(M * N * *bpe_in + 2 * packed + M * ((N + 31) / 32) + N * ((M + 31) / 32));
  return out;
}

FamilyOutput ln_modulate(ModelClass model, const OpArgs& args) {
  const Shape x = shape_of(at(required(args.input_dims, "Input Dims"), 0, "Input Dims"), "x");
  const std::string dtype_in = string_at(required(args.input_types, "Input type"), 0, "Input type");
  if (x.size() < 3) fail("fused_ln_modulate input must be [T, B, H]");
  const bool backward = model == ModelClass::kFusedLnModulateBwd;
  FamilyOutput out;
  out.params.emplace_back("op_shape", py_tuple(x));
  out.params.emplace_back("dtype_in_out", tuple_of({py_str(dtype_in), py_none()}));
  out.params.emplace_back("stride_input", first_stride(args));
  out.params.emplace_back("stride_output", py_none());
  out.params.emplace_back("num_channels", py_int(x[2]));
  out.params.emplace_back("has_bias", py_bool(true));
  out.params.emplace_back("is_affine", py_bool(true));
  out.params.emplace_back("is_training", py_bool(true));
  if (backward) {
    out.params.emplace_back("output_mask", list_of({py_bool(true), py_bool(true), py_bool(true)}));
  }
  if (!dtype_in.empty()) {
    out.precision_dtype = dtype_in;
    out.has_precision_dtype = true;
  }
  const PyInt elems = prod(x), T = x[0], B = x[1], H = x[2];
  out.flops = I(elems * (backward ? 15 : 12));
  const auto bpe = bytes_per_element(dtype_in);
  if (!bpe) fail("unsupported operand type(s) for *: 'int' and 'NoneType'");
  if (backward) {
    // grad_out and x_norm read, mean/rstd (fp32) read, x_grad written, scale/shift grads
    // written, the modulation grad read.
    out.bytes =
        I(2 * elems * *bpe + 2 * B * T * 4 + elems * *bpe + 2 * B * H * *bpe + B * H * *bpe);
  } else {
    // x read, y written, scale/shift read, mean/rstd (fp32) written.
    out.bytes = I(elems * *bpe + elems * *bpe + 2 * B * H * *bpe + 2 * T * B * 4);
  }
  return out;
}

}  // namespace

FamilyOutput primus_model(ModelClass model, std::string_view name, const OpArgs& args,
                          Direction direction) {
  const bool ln = model == ModelClass::kFusedLnModulate || model == ModelClass::kFusedLnModulateBwd;
  if (direction == Direction::kBackward) {
    // The LN-modulate classes raise NotImplementedError; the quantizers have no backward.
    if (ln) not_implemented(std::string("no backward formulas for ").append(name));
    fail(std::string("no backward model for ").append(name));
  }
  return ln ? ln_modulate(model, args) : quantize(model, args);
}

}  // namespace loupe::core::prepare::perf::detail
