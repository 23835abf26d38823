// Normalization models (docs/contracts/trace_model.md §3.9.8): batch/layer/group/instance/RMS norm
// and their backward ops.
#include "model_support.hpp"

namespace loupe::core::prepare::perf::detail {
namespace {

struct NormParams {
  Shape op_shape;
  std::string dtype_in;
  PyValue stride_input;
  FormulaNumber num_channels;  // an int, or a float for GroupNormBwd
  bool has_bias = true;
  bool is_affine = true;
  bool is_training = true;
  std::optional<std::vector<bool>> output_mask;
};

PyValue number_value(const FormulaNumber& n) {
  return n.is_int ? PyValue(static_cast<std::int64_t>(n.i)) : PyValue(n.f);
}

FormulaNumber prod_of_list(std::string_view text) {
  PyInt p = 1;
  for (const auto v : parse_int_list(text)) p *= v;
  return I(p);
}

NormParams parse(ModelClass model, std::string_view name, const OpArgs& args) {
  // TraceLens's InstanceNormBwd raises before it reads any argument.
  if (model == ModelClass::kInstanceNormBwd) {
    not_implemented("Backward pass for InstanceNorm is not defined.");
  }
  const Json& dims = required(args.input_dims, "Input Dims");
  const Json& types = required(args.input_types, "Input type");
  const Json& strides = required(args.input_strides, "Input Strides");
  const auto concrete = [&](std::size_t i) -> const std::string& {
    return string_at(required(args.concrete_inputs, "Concrete Inputs"), i, "Concrete Inputs");
  };
  NormParams p;
  std::size_t input = 0;
  switch (model) {
    case ModelClass::kBatchNormBwd:
    case ModelClass::kLayerNormBwd:
    case ModelClass::kGroupNormBwd:
    case ModelClass::kRmsNormBwd:
      input = 1;
      break;
    default:
      break;
  }
  const bool miopen_cudnn_bn_bwd =
      model == ModelClass::kBatchNormBwd &&
      (name == "aten::cudnn_batch_norm_backward" || name == "aten::miopen_batch_norm_backward");
  if (miopen_cudnn_bn_bwd) input = 0;
  if (model == ModelClass::kBatchNormBwd) {
    // output_mask = [Input Dims[0] is not None]; checked before the input shape.
    p.output_mask = std::vector<bool>{miopen_cudnn_bn_bwd || is_not_none(dims, 0, "Input Dims")};
  }
  p.op_shape = shape_of(at(dims, input, "Input Dims"), "input");
  const auto channel_dim = [&]() {
    if (p.op_shape.size() < 2) fail("norm input rank < 2");
    return p.op_shape[1];
  };
  switch (model) {
    case ModelClass::kBatchNorm:
      p.is_affine = is_not_none(dims, 2, "Input Dims");
      p.is_training = !concrete(5).empty();
      p.num_channels = I(channel_dim());
      break;
    case ModelClass::kBatchNormBwd:
      p.is_training = miopen_cudnn_bn_bwd ? false : !concrete(7).empty();
      p.num_channels = I(channel_dim());
      p.is_affine = is_not_none(dims, 2, "Input Dims");
      break;
    case ModelClass::kLayerNorm:
      p.num_channels = prod_of_list(concrete(1));
      p.has_bias = is_not_none(dims, 3, "Input Dims");
      p.is_affine = is_not_none(dims, 2, "Input Dims");
      break;
    case ModelClass::kLayerNormBwd: {
      p.num_channels = prod_of_list(concrete(2));
      const auto mask = parse_bool_list(concrete(7));
      if (mask.size() < 3) fail("output_mask too short");
      p.output_mask = mask;
      p.is_affine = mask[1];
      p.has_bias = mask[2];
      break;
    }
    case ModelClass::kGroupNorm:
      p.is_affine = is_not_none(dims, 2, "Input Dims");
      p.num_channels = I(channel_dim());
      break;
    case ModelClass::kGroupNormBwd: {
      p.is_affine = is_not_none(dims, 5, "Input Dims");
      p.output_mask = parse_bool_list(concrete(9));
      p.num_channels = true_div(I(channel_dim()), I(py_int_of(concrete(8))));
      break;
    }
    case ModelClass::kInstanceNorm:
      p.is_affine = is_not_none(dims, 2, "Input Dims");
      p.is_training = !concrete(5).empty();
      p.num_channels = I(channel_dim());
      break;
    case ModelClass::kRmsNorm:
      p.is_affine = is_not_none(dims, 2, "Input Dims");
      p.num_channels = prod_of_list(concrete(1));
      p.has_bias = false;
      p.is_training = false;
      break;
    case ModelClass::kRmsNormBwd:
      p.is_affine = is_not_none(dims, 4, "Input Dims");
      p.num_channels = prod_of_list(concrete(2));
      p.output_mask = parse_bool_list(concrete(5));
      p.has_bias = false;
      p.is_training = false;
      break;
    default:
      throw ModelException{ModelError::kUnsupported, "no normalization model for this op"};
  }
  p.dtype_in = string_at(types, input, "Input type");
  p.stride_input = py_tuple(at(strides, input, "Input Strides"));
  return p;
}

bool is_backward_class(ModelClass model) {
  return model == ModelClass::kBatchNormBwd || model == ModelClass::kLayerNormBwd ||
         model == ModelClass::kGroupNormBwd || model == ModelClass::kRmsNormBwd;
}

}  // namespace

FamilyOutput norm_model(ModelClass model, std::string_view name, const OpArgs& args,
                        Direction direction) {
  const NormParams p = parse(model, name, args);
  FamilyOutput out;
  out.params.emplace_back("op_shape", py_tuple(p.op_shape));
  out.params.emplace_back("dtype_in_out", tuple_of({py_str(p.dtype_in), py_none()}));
  out.params.emplace_back("stride_input", p.stride_input);
  out.params.emplace_back("stride_output", py_none());
  out.params.emplace_back("num_channels", number_value(p.num_channels));
  out.params.emplace_back("has_bias", py_bool(p.has_bias));
  out.params.emplace_back("is_affine", py_bool(p.is_affine));
  out.params.emplace_back("is_training", py_bool(p.is_training));
  if (p.output_mask) {
    std::vector<PyValue> mask;
    for (const bool b : *p.output_mask) mask.push_back(py_bool(b));
    out.params.emplace_back("output_mask", list_of(std::move(mask)));
  }
  out.precision_dtype = p.dtype_in;
  out.has_precision_dtype = true;

  // Forward classes have no backward formulas; backward classes use theirs as "forward".
  if (direction == Direction::kBackward) {
    not_implemented(std::string("Backward pass for ").append(name).append(" is not defined."));
  }
  const std::optional<int> bpe = bytes_per_element(p.dtype_in);
  const FormulaNumber n = I(prod(p.op_shape));
  const FormulaNumber c = p.num_channels;

  if (model == ModelClass::kRmsNorm) {
    const FormulaNumber rows = true_div(n, c);
    out.flops = rows * (I(2) * c + I(2)) + n * I(p.is_affine ? 2 : 1);
    if (!bpe) fail("unknown bytes per element");
    out.bytes = n * I(*bpe) + n * I(*bpe) + (p.is_affine ? c * I(*bpe) : I(0));
    return out;
  }
  if (model == ModelClass::kRmsNormBwd) {
    const auto& mask = *p.output_mask;
    if (mask.size() < 2) fail("output_mask too short");
    const FormulaNumber rows = true_div(n, c);
    FormulaNumber flops = p.is_affine ? n : I(0);
    flops = flops + n;
    if (mask[0]) flops = flops + I(2) * n + I(4) * n;
    if (mask[1] && p.is_affine) {
      flops = flops + n;
      if (rows.to_double() > 1.0) flops = flops + n;
    }
    out.flops = flops;
    if (!bpe) fail("unknown bytes per element");
    FormulaNumber bytes = n * I(*bpe) + n * I(*bpe) * I(2);
    if (p.is_affine) bytes = bytes + c * I(*bpe) * I(2);
    out.bytes = bytes;
    return out;
  }
  if (!is_backward_class(model)) {
    FormulaNumber flops = c * I(3);
    if (p.is_training) flops = flops + n * I(3);
    flops = flops + c * I(3);
    out.flops = flops + I(2) * n;
    PyInt tensors = 2;
    if (p.is_affine) tensors += p.has_bias ? 2 : 1;
    if (p.is_training) tensors += 2;
    if (!bpe) fail("unknown bytes per element");
    out.bytes = n * I(*bpe) + n * I(*bpe) + I(tensors) * c * I(*bpe);
    return out;
  }
  // Normalization.flops_func_bwd / bytes_func_bwd.
  const auto& mask = *p.output_mask;
  if (mask.empty()) fail("output_mask is empty");
  const FormulaNumber per_channel_elems = true_div(n, c);
  FormulaNumber per_channel = I(p.is_training ? 0 : 3);
  per_channel = per_channel + I(4) * per_channel_elems;
  if (mask[0]) {
    if (p.is_training) per_channel = per_channel + I(5) * per_channel_elems;
  } else {
    per_channel = per_channel + I(2) * per_channel_elems;
  }
  out.flops = c * per_channel;
  if (!bpe) fail("unknown bytes per element");
  const FormulaNumber b = I(*bpe);
  FormulaNumber bytes = n * b + n * b * I(mask[0] && p.is_training ? 2 : 1);
  if (p.is_training) bytes = bytes + c * b;
  if (p.is_affine) {
    bytes = bytes + c * b;
    if (p.is_training) bytes = bytes + c * b * I(p.has_bias ? 2 : 1);
  }
  out.bytes = bytes;
  return out;
}

}  // namespace loupe::core::prepare::perf::detail
