// RMSNorm kernels of the serving engines (docs/deviations.md, "Serving-engine ops"): AITER's
// rms_norm / rmsnorm / rmsnorm2d (with residual add, dynamic FP8 quant), vLLM's fused
// RMSNorm + FP8 group quant and add + pad, the MXFP4-quantizing RMSNorms of SGLang and AITER.
// Each is aten RMSNorm's model (flops rows*(2N+2) + 2n, bytes: read x and weight, write the
// output; n elements in rows of N channels) on its own argument layout, plus what the fusion
// adds: a residual add (n flops, its tensors read and written), quantization (2n flops, one
// byte per element written plus 4-byte scales), MXFP4 output (half a byte per element plus a
// scale byte per 32).
#include "model_support.hpp"

namespace loupe::core::prepare::perf::detail {
namespace {

struct NormLayout {
  std::size_t x;       // the normalized input
  std::size_t weight;  // weight[N]: the channel count
};

NormLayout norm_layout_of(ModelClass model) {
  switch (model) {
    case ModelClass::kRmsNormAiterX1:  // (out, x, weight, ...)
      return {1, 2};
    case ModelClass::kRmsNormDynamicQuant:  // (out, x, scale, weight, ...)
    case ModelClass::kRmsNormGroupQuant:
      return {1, 3};
    case ModelClass::kRmsNormAddCk:  // (out, x, residual_in, residual_out, weight, ...)
      return {1, 4};
    case ModelClass::kRmsNormAddFp8GroupQuant:  // (x, residual, weight, eps, group_size)
      return {0, 2};
    default:  // (x, weight, ...)
      return {0, 1};
  }
}

// int(Concrete Inputs[i]) (ValueError / IndexError fail the model).
std::int64_t concrete_int(const OpArgs& args, std::size_t i) {
  return py_int_of(
      string_at(required(args.concrete_inputs, "Concrete Inputs"), i, "Concrete Inputs"));
}

PyInt ceil_groups(PyInt n, PyInt group) {
  if (group <= 0) fail("group size must be positive");
  return (n + group - 1) / group;
}

}  // namespace

FamilyOutput rmsnorm_extension_model(ModelClass model, std::string_view name, const OpArgs& args,
                                     Direction direction) {
  const Json& dims = required(args.input_dims, "Input Dims");
  // vLLM's add + pad reads its pad multiple before anything else.
  std::int64_t pad_multiple = 0;
  if (model == ModelClass::kRmsNormAddPad) pad_multiple = concrete_int(args, 4);
  const NormLayout l = norm_layout_of(model);
  const Json& types = required(args.input_types, "Input type");
  const Json& strides = required(args.input_strides, "Input Strides");
  const Shape op_shape = shape_of(at(dims, l.x, "Input Dims"), "x");
  const std::string& dtype = string_at(types, l.x, "Input type");
  const PyValue stride = py_tuple(at(strides, l.x, "Input Strides"));
  const Shape weight = shape_of(at(dims, l.weight, "Input Dims"), "weight");
  if (weight.empty()) fail("weight has no dimension");
  const std::int64_t channels = weight[0];

  FamilyOutput out;
  out.params.emplace_back("op_shape", py_tuple(op_shape));
  out.params.emplace_back("dtype_in_out", tuple_of({py_str(dtype), py_none()}));
  out.params.emplace_back("stride_input", stride);
  out.params.emplace_back("stride_output", py_none());
  out.params.emplace_back("num_channels", py_int(channels));
  out.params.emplace_back("has_bias", py_bool(false));
  out.params.emplace_back("is_affine", py_bool(true));
  out.params.emplace_back("is_training", py_bool(false));
  out.precision_dtype = dtype;
  out.has_precision_dtype = true;

  // Group sizes are read when the model is built, before any formula.
  std::int64_t group = 0;
  if (model == ModelClass::kRmsNormGroupQuant) {
    // AITER's rmsnorm_quant: a missing or unreadable group size means one group per row.
    const Json& concrete = args.concrete_inputs;
    if (concrete.is_array() && concrete.size() > 5 && concrete.as_array()[5].is_string()) {
      try {
        group = py_int_of(concrete.as_array()[5].as_string());
      } catch (const ModelException&) {
        group = 0;
      }
    }
  } else if (model == ModelClass::kRmsNormFp8GroupQuant) {
    group = concrete_int(args, 3);
  } else if (model == ModelClass::kRmsNormAddFp8GroupQuant) {
    group = concrete_int(args, 4);
  }
  bool has_x2 = false;
  bool has_res1 = false;
  std::int64_t n2 = 0;
  if (model == ModelClass::kRmsNormMxfp4Quant) {
    // (x1, x1_weight, eps, x2, x2_weight, eps2, res1, ...): a rank-2 shape = tensor given.
    if (dims.size() > 3) {
      const Shape x2 = shape_of(at(dims, 3, "Input Dims"), "x2");
      if (x2.size() == 2) {
        has_x2 = true;
        n2 = x2[1];
      }
    }
    if (dims.size() > 6 && shape_of(at(dims, 6, "Input Dims"), "res1").size() == 2) {
      has_res1 = true;
    }
  }
  if (direction == Direction::kBackward) {
    not_implemented(std::string("Backward pass for ").append(name).append(" is not defined."));
  }

  const PyInt n_int = prod(op_shape);
  const PyInt c_int = channels;
  if (c_int == 0) fail("division by zero: no channels");
  const FormulaNumber n = I(n_int);
  const FormulaNumber c = I(c_int);
  const FormulaNumber base_flops = true_div(n, c) * (I(2) * c + I(2)) + n * I(2);
  const std::optional<int> bpe_opt = bytes_per_element(dtype);
  if (!bpe_opt) fail("unknown bytes per element");
  const FormulaNumber bpe = I(*bpe_opt);
  // Python's floor division of the row count (both ints, channels non-zero).
  PyInt rows = n_int / c_int;
  if ((n_int % c_int != 0) && ((n_int < 0) != (c_int < 0))) --rows;
  const FormulaNumber m = I(rows);

  switch (model) {
    case ModelClass::kRmsNormDynamicQuant:
      out.flops = base_flops + I(2) * n;
      out.bytes = n * bpe + c * bpe + n * I(1) + m * I(1) * I(4);
      break;
    case ModelClass::kRmsNormGroupQuant: {
      const PyInt gs = group > 0 ? group : c_int;
      out.flops = base_flops + I(2) * n;
      out.bytes = n * bpe + c * bpe + n * I(1) + m * I(ceil_groups(c_int, gs)) * I(4);
      break;
    }
    case ModelClass::kRmsNormFp8GroupQuant:
      out.flops = base_flops + I(2) * n;
      out.bytes = n * bpe + c * bpe + n * I(1) + m * I(ceil_groups(c_int, group)) * I(4);
      break;
    case ModelClass::kRmsNormAddFp8GroupQuant:
      out.flops = base_flops + I(3) * n;
      out.bytes = n * bpe + n * bpe + c * bpe + n * I(1) + n * bpe +
                  m * I(ceil_groups(c_int, group)) * I(4);
      break;
    case ModelClass::kRmsNormAddCk:
      out.flops = n + base_flops;
      out.bytes = I(2) * n * bpe + c * bpe + I(2) * n * bpe;
      break;
    case ModelClass::kRmsNormAddPad: {
      const PyInt n_out =
          pad_multiple > 0 ? (c_int + pad_multiple - 1) / pad_multiple * pad_multiple : c_int;
      out.flops = n + base_flops;
      out.bytes = I(2) * n * bpe + c * bpe + m * I(n_out) * bpe + m * c * bpe;
      break;
    }
    case ModelClass::kRmsNormMxfp4Quant: {
      FormulaNumber flops = base_flops;
      if (has_res1) flops = flops + m * c;
      if (has_x2) {
        // int(base * x2_elems / max(n, 1)): truncated toward zero.
        const FormulaNumber x2_elems = m * I(n2);
        const double share =
            (base_flops * x2_elems).to_double() / static_cast<double>(n_int > 1 ? n_int : 1);
        flops = flops + I(static_cast<PyInt>(share));
      }
      out.flops = flops + I(2) * n;
      FormulaNumber bytes = n * bpe + c * bpe + n * F(0.5) + I(n_int / 32) * I(1);
      if (has_res1) bytes = bytes + n * bpe + n * bpe;
      if (has_x2) {
        const FormulaNumber x2_elems = m * I(n2);
        bytes = bytes + x2_elems * bpe + I(n2) * bpe + x2_elems * bpe;
      }
      out.bytes = bytes;
      break;
    }
    default:  // kRmsNormAiterX0, kRmsNormAiterX1: aten RMSNorm's formulas
      out.flops = base_flops;
      out.bytes = n * bpe + n * bpe + c * bpe;
      break;
  }
  return out;
}

}  // namespace loupe::core::prepare::perf::detail
