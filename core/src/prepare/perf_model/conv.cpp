// Convolution models (docs/contracts/trace_model.md §3.9.5): aten::convolution and
// aten::convolution_backward.
#include "model_support.hpp"

namespace loupe::core::prepare::perf::detail {
namespace {

// "[2, 2]" -> (2, 2): the text between the brackets split on commas, each through int().
Shape str_to_tuple(std::string_view s) {
  if (s.size() < 2) fail("conv argument is not a list literal");
  Shape out;
  std::string_view body = s.substr(1, s.size() - 2);
  while (true) {
    const auto comma = body.find(',');
    out.push_back(py_int_of(body.substr(0, comma)));
    if (comma == std::string_view::npos) break;
    body = body.substr(comma + 1);
  }
  return out;
}

Shape conv_arg(std::string_view text, std::size_t ndims, std::int64_t fallback) {
  Shape v = text.empty() ? Shape(ndims, fallback) : str_to_tuple(text);
  if (v.size() == 1) v = Shape(ndims, v[0]);  // broadcast a single value
  return v;
}

std::int64_t at_dim(const Shape& s, std::size_t i) {
  if (i >= s.size()) fail("conv parameter shorter than the spatial rank");
  return s[i];
}

Shape t(const Shape& s) {
  if (s.size() < 2) fail("shape too short to transpose");
  Shape out = s;
  std::swap(out[0], out[1]);
  return out;
}

// CONV.flops_func(x, w, out, bias, transposed).
PyInt flops_func(const Shape& x, const Shape& w, const Shape& out, bool bias, bool transposed) {
  const PyInt per_element = 2 * prod(w, 1);
  const PyInt conv = (transposed ? prod(x) : prod(out)) * per_element;
  return conv + (bias ? prod(out) : 0);
}

// CONV.bytes_func(x, w, out, bias, bpe) in elements (times bpe by the caller).
PyInt elems_func(const Shape& x, const Shape& w, const Shape& out, bool bias) {
  if (bias && out.size() < 2) fail("output shape too short");
  return prod(x) + prod(w) + (bias ? out[1] : 0) + prod(out);
}

struct ConvParams {
  Shape x;
  Shape w;
  Shape stride;
  Shape padding;
  Shape dilation;
  Shape output_padding;
  bool transposed = false;
  PyValue bias;  // bool, or the (empty) dims[3] list for convolution_backward
  std::int64_t groups = 1;
  PyValue dtypes;  // dtype_input_weight
  PyValue input_stride, weight_stride;
};

// aten::convolution(input, weight, bias, stride, padding, dilation, transposed,
// output_padding, groups) and aten::convolution_backward(grad_out, input, weight, bias_sizes,
// …): list-literal scalars.
ConvParams read_aten_conv(const OpArgs& args, bool is_bwd_op) {
  const std::size_t ix = is_bwd_op ? 1 : 0;  // input tensor index
  const std::size_t ic = is_bwd_op ? 4 : 3;  // first scalar argument (stride)
  const Json& dims = required(args.input_dims, "Input Dims");
  const Json& concrete = required(args.concrete_inputs, "Concrete Inputs");
  ConvParams p;
  p.x = shape_of(at(dims, ix, "Input Dims"), "input");
  if (p.x.size() < 2) fail("conv input rank < 2");
  const std::size_t ndims = p.x.size() - 2;
  p.w = shape_of(at(dims, ix + 1, "Input Dims"), "weight");
  if (is_bwd_op) {
    if (dims.size() > 3) {
      const Json& bias_dims = dims.as_array()[3];
      const bool truthy = bias_dims.is_array() ? bias_dims.size() > 0 : !bias_dims.is_null();
      p.bias = truthy ? py_bool(true) : py(bias_dims);
    } else {
      p.bias = py_bool(false);
    }
  } else {
    p.bias = py_bool(dims.size() == 3);
  }
  p.stride = conv_arg(string_at(concrete, ic, "Concrete Inputs"), ndims, 1);
  p.padding = conv_arg(string_at(concrete, ic + 1, "Concrete Inputs"), ndims, 0);
  p.dilation = conv_arg(string_at(concrete, ic + 2, "Concrete Inputs"), ndims, 1);
  p.transposed = eval_bool(string_at(concrete, ic + 3, "Concrete Inputs"));
  p.output_padding = conv_arg(string_at(concrete, ic + 4, "Concrete Inputs"), ndims, 0);
  p.groups = py_int_of(string_at(concrete, ic + 5, "Concrete Inputs"));

  const Json& types = required(args.input_types, "Input type");
  p.dtypes = slice_tuple(types, ix, ix + 2);
  const auto& dt = p.dtypes.items();
  if (dt.size() < 2) fail("dtype_input_weight needs two entries");
  if (dt[0].repr() != dt[1].repr()) {
    fail("Data types of input and weight are different");
  }
  if (!args.input_strides.is_null()) {
    p.input_stride = py_tuple(at(args.input_strides, ix, "Input Strides"));
    p.weight_stride = py_tuple(at(args.input_strides, ix + 1, "Input Strides"));
  }
  return p;
}

// The fused ConvBias_ / ConvBiasReLU_ ops (input, weight, bias, stride, padding): one int
// for every spatial dimension's stride and padding, no dilation, groups 1, always a bias.
ConvParams read_conv_bias(const OpArgs& args) {
  const Json& dims = required(args.input_dims, "Input Dims");
  const Json& concrete = required(args.concrete_inputs, "Concrete Inputs");
  ConvParams p;
  p.x = shape_of(at(dims, 0, "Input Dims"), "input");
  if (p.x.size() < 2) fail("Unknown convolution dimension");
  const std::size_t ndims = p.x.size() - 2;
  p.w = shape_of(at(dims, 1, "Input Dims"), "weight");
  p.bias = py_bool(true);
  const auto scalar = [&](std::size_t i, std::int64_t fallback) {
    const std::string text = concrete.is_array() && concrete.size() > i
                                 ? string_at(concrete, i, "Concrete Inputs")
                                 : std::string();
    return Shape(ndims, text.empty() ? fallback : py_int_of(text));
  };
  p.stride = scalar(3, 1);
  p.padding = scalar(4, 0);
  p.dilation = Shape(ndims, 1);
  p.output_padding = Shape(ndims, 0);
  p.dtypes = slice_tuple(required(args.input_types, "Input type"), 0, 2);
  const auto& dt = p.dtypes.items();
  if (dt.size() < 2 || dt[0].repr() != dt[1].repr()) {
    fail("Data types of input and weight are different");
  }
  const Json& strides = args.input_strides;
  if (strides.is_array() && strides.size() > 1) {
    p.input_stride = py_tuple(at(strides, 0, "Input Strides"));
    p.weight_stride = py_tuple(at(strides, 1, "Input Strides"));
  }
  return p;
}

}  // namespace

FamilyOutput conv_model(ModelClass model, std::string_view /*name*/, const OpArgs& args,
                        Direction direction) {
  const bool is_bwd_op = model == ModelClass::kAtenConvBwd || model == ModelClass::kConvBiasBwd;
  ConvParams p;
  if (model == ModelClass::kConvBias) {
    p = read_conv_bias(args);
  } else if (model == ModelClass::kConvBiasBwd) {
    // TraceLens's class takes every parameter from the forward op of the same sequence number
    // and has no numbers without it.
    if (args.forward == nullptr) {
      fail("no forward ConvBias op with the backward op's sequence number");
    }
    p = read_conv_bias(*args.forward);
  } else {
    p = read_aten_conv(args, is_bwd_op);
  }
  const std::size_t ndims = p.x.size() - 2;
  const auto& dt = p.dtypes.items();
  const char* conv_nd = p.x.size() == 3   ? "conv1d"
                        : p.x.size() == 4 ? "conv2d"
                        : p.x.size() == 5 ? "conv3d"
                                          : nullptr;
  if (conv_nd == nullptr) fail("Unknown convolution dimension");

  FamilyOutput out;
  out.params.emplace_back("convNd", py_str(conv_nd));
  out.params.emplace_back("input_shape", py_tuple(p.x));
  out.params.emplace_back("filter_shape", py_tuple(p.w));
  out.params.emplace_back("dtype_input_weight", p.dtypes);
  out.params.emplace_back("input_stride", p.input_stride);
  out.params.emplace_back("weight_stride", p.weight_stride);
  out.params.emplace_back("bias", p.bias);
  out.params.emplace_back("stride", py_tuple(p.stride));
  out.params.emplace_back("padding", py_tuple(p.padding));
  out.params.emplace_back("dilation", py_tuple(p.dilation));
  out.params.emplace_back("transposed_conv", py_bool(p.transposed));
  out.params.emplace_back("output_padding", py_tuple(p.output_padding));
  out.params.emplace_back("groups", py_int(p.groups));
  if (!dt.empty() && dt[0].is_string()) {
    out.precision_dtype = dt[0].as_string();
    out.has_precision_dtype = true;
  }

  // Output shape (CONV.get_output_shape).
  if (p.w.size() < 2) fail("filter rank < 2");
  Shape y{p.x[0], p.transposed ? p.w[1] : p.w[0]};
  for (std::size_t i = 0; i < ndims; ++i) {
    const std::int64_t in = p.x[2 + i];
    const std::int64_t kernel = at_dim(p.w, 2 + i);
    const std::int64_t s = at_dim(p.stride, i);
    const std::int64_t pad = at_dim(p.padding, i);
    const std::int64_t dil = at_dim(p.dilation, i);
    if (p.transposed) {
      y.push_back((in - 1) * s - 2 * pad + dil * (kernel - 1) + at_dim(p.output_padding, i) + 1);
    } else {
      if (s == 0) fail("division by zero");
      // int(((in + 2p - d(k-1) - 1) / s) + 1): true division, then truncation.
      const double q = true_div_double(in + 2 * pad - dil * (kernel - 1) - 1, s) + 1.0;
      y.push_back(static_cast<std::int64_t>(q));
    }
  }

  const bool bias = p.bias.truthy();
  const bool backward_formulas = is_bwd_op || direction == Direction::kBackward;
  // aten::convolution_backward's own ("forward") metrics are the backward formulas, and so
  // are its backward metrics.
  if (!backward_formulas) {
    out.flops = I(flops_func(p.x, p.w, y, bias, p.transposed));
  } else {
    const PyInt input_grad = flops_func(y, p.w, p.x, false, !p.transposed);
    const PyInt weight_grad = p.transposed ? flops_func(t(y), t(p.x), t(p.w), false, false)
                                           : flops_func(t(p.x), t(y), t(p.w), false, false);
    out.flops = I(input_grad + weight_grad + (bias ? prod(y) : 0));
  }
  if (!dt[0].is_string()) fail("dtype is not a string");
  if (const auto bpe = bytes_per_element(dt[0].as_string())) {
    if (!backward_formulas) {
      out.bytes = I(elems_func(p.x, p.w, y, bias) * *bpe);
    } else {
      const PyInt grads =
          elems_func(y, p.w, p.x, false) * *bpe + elems_func(y, p.x, p.w, false) * *bpe;
      PyInt bias_grad = 0;
      if (bias) {
        if (y.size() < 2) fail("output shape too short");
        bias_grad = prod(y) + y[1];  // elements, not bytes (reference quirk)
      }
      out.bytes = I(grads + bias_grad);
    }
  }
  return out;
}

}  // namespace loupe::core::prepare::perf::detail
