// Activation quantization kernels of the serving engines (docs/deviations.md, "Serving-engine
// ops"), category GroupQuant, with TraceLens's formulas:
//   * AITER's dynamic per-token / per-group / per-tensor FP8 quant, (out, input, scales, ...):
//     flops = 2.59375 per output element (a measured instruction count), bytes = output, input
//     and scales, each at its own dtype width;
//   * vLLM's Triton per-token-group FP8 quant, (x[M,N], group_size): flops = 6 per element,
//     bytes = x read, one FP8 byte per element written plus a 4-byte scale per group;
//   * the MXFP4 quantizers (SGLang's flatten / dynamic quant, AITER's per-group FP4 quant and
//     its quant + MoE sort): flops = 2 per element, bytes = the input read, half a byte per
//     element written and one E8M0 scale byte per 32 elements. Each names its own input
//     position; the MoE-sort variants leave out the sort's small index arrays.
#include <algorithm>

#include "loupe/text.hpp"
#include "model_support.hpp"

namespace loupe::core::prepare::perf::detail {
namespace {

// Python's a // b for ints.
// (out, input, scales, ...): every shape, dtype and stride read.
FamilyOutput per_group_quant(const OpArgs& args) {
  const Json& dims = required(args.input_dims, "Input Dims");
  const Shape in1 = shape_of(at(dims, 1, "Input Dims"), "input");
  const Shape in2 = shape_of(at(dims, 2, "Input Dims"), "scales");
  const Shape out_shape = shape_of(at(dims, 0, "Input Dims"), "out");
  const Json& types = required(args.input_types, "Input type");
  const Json& dtype_in1 = at(types, 1, "Input type");
  const Json& dtype_in2 = at(types, 2, "Input type");
  const Json& dtype_out = at(types, 0, "Input type");
  const Json& strides = required(args.input_strides, "Input Strides");
  const PyValue stride_out = py_tuple(at(strides, 0, "Input Strides"));
  const PyValue stride_in1 = py_tuple(at(strides, 1, "Input Strides"));
  const PyValue stride_in2 = py_tuple(at(strides, 2, "Input Strides"));

  FamilyOutput out;
  out.params.emplace_back("shape_in1", py_tuple(in1));
  out.params.emplace_back("shape_in2", py_tuple(in2));
  out.params.emplace_back("shape_out", py_tuple(out_shape));
  out.params.emplace_back("dtype_in1_in2_out",
                          tuple_of({py(dtype_in1), py(dtype_in2), py(dtype_out)}));
  out.params.emplace_back("stride_input1", stride_in1);
  out.params.emplace_back("stride_input2", stride_in2);
  out.params.emplace_back("stride_output", stride_out);
  if (dtype_in1.is_string()) set_precision(out, dtype_in1.as_string());

  const auto bpe = [](const Json& dtype) -> PyInt {
    const auto b = dtype.is_string() ? bytes_per_element(dtype.as_string()) : std::nullopt;
    if (!b) fail("unknown bytes per element");
    return *b;
  };
  out.flops = I(prod(out_shape)) * F(2.59375);
  out.bytes =
      I(prod(out_shape) * bpe(dtype_out) + prod(in1) * bpe(dtype_in1) + prod(in2) * bpe(dtype_in2));
  return out;
}

// vLLM's per_token_group_quant_fp8: (x, group_size); the group size defaults to 128.
FamilyOutput vllm_triton_group_quant_fp8(const OpArgs& args) {
  Shape x;
  if (args.input_dims.is_array() && args.input_dims.size() > 0) {
    x = shape_of(args.input_dims.as_array()[0], "x");
  }
  const std::int64_t m = x.size() >= 2 ? x[0] : 1;
  const std::int64_t n = x.size() >= 2 ? x[1] : (x.size() == 1 ? x[0] : 1);
  std::int64_t group = 128;
  const Json& concrete = args.concrete_inputs;
  if (concrete.is_array() && concrete.size() > 1 && concrete.as_array()[1].is_string()) {
    const std::string& text = concrete.as_array()[1].as_string();
    const auto first = text.find_first_not_of(" \t\n\r\f\v");
    const std::string raw =
        first == std::string::npos
            ? std::string()
            : text.substr(first, text.find_last_not_of(" \t\n\r\f\v") - first + 1);
    if (!raw.empty() && text::ascii_lower(raw) != "none") {
      try {
        group = py_int_of(raw);
      } catch (const ModelException&) {
        group = 128;
      }
    }
  }
  const PyInt groups = std::max<PyInt>(1, floor_div(PyInt{n} + group - 1, group));
  std::string dtype_x;
  if (args.input_types.is_array() && args.input_types.size() > 0) {
    dtype_x = string_at(args.input_types, 0, "Input type");
  }
  const std::string fp8 = "c10::float8_e4m3fn";

  FamilyOutput out;
  out.params.emplace_back("M", py_int(m));
  out.params.emplace_back("N", py_int(n));
  out.params.emplace_back("group_size", py_int(group));
  out.params.emplace_back("num_groups", py_int(static_cast<std::int64_t>(groups)));
  out.params.emplace_back("shape_x", py_tuple(x));
  out.params.emplace_back("dtype_x", py_str(dtype_x));
  out.params.emplace_back("shape_in1", py_tuple(x));
  out.params.emplace_back("shape_in2", py_tuple(Shape{}));
  out.params.emplace_back("shape_out", py_tuple(x));
  out.params.emplace_back("dtype_in1_in2_out", tuple_of({py_str(dtype_x), py_none(), py_str(fp8)}));
  out.params.emplace_back("stride_input1", py_none());
  out.params.emplace_back("stride_input2", py_none());
  out.params.emplace_back("stride_output", py_none());
  set_precision(out, dtype_x);

  const PyInt M = m, N = n;
  out.flops = I(6 * M * N);
  if (const auto bpe_in = bytes_per_element(dtype_x)) {
    out.bytes = I(M * N * *bpe_in + M * N * 1 + M * groups * 4);
  }
  return out;
}

struct Mxfp4Layout {
  std::size_t input;  // position of the quantized activation
  bool strided;       // whether the model reads its stride
};

Mxfp4Layout mxfp4_layout(ModelClass model) {
  switch (model) {
    case ModelClass::kMxfp4QuantFlatten:
      return {0, true};
    case ModelClass::kMxfp4QuantX0:
      return {0, false};
    case ModelClass::kMxfp4QuantX1:
      return {1, false};
    case ModelClass::kMxfp4QuantMoeSort:
      return {2, true};
    default:  // kMxfp4QuantX2
      return {2, false};
  }
}

FamilyOutput mxfp4_quant(ModelClass model, const OpArgs& args) {
  const Mxfp4Layout l = mxfp4_layout(model);
  const Json& dims = required(args.input_dims, "Input Dims");
  const Json& types = required(args.input_types, "Input type");
  const Shape shape = shape_of(at(dims, l.input, "Input Dims"), "input");
  const std::string& dtype = string_at(types, l.input, "Input type");
  PyValue stride;
  if (l.strided) {
    stride = py_tuple(at(required(args.input_strides, "Input Strides"), l.input, "Input Strides"));
  }

  FamilyOutput out;
  out.params.emplace_back("op_shape", py_tuple(shape));
  out.params.emplace_back("dtype_in_out", tuple_of({py_str(dtype), py_str(dtype)}));
  out.params.emplace_back("stride_input", stride);
  out.params.emplace_back("stride_output", py_none());
  set_precision(out, dtype);

  const PyInt nelems = prod(shape);
  out.flops = I(2 * nelems);
  if (const auto bpe = bytes_per_element(dtype)) {
    out.bytes = I(nelems * *bpe) + I(nelems) * F(0.5) + I(floor_div(nelems, 32));
  }
  return out;
}

}  // namespace

FamilyOutput group_quant_model(ModelClass model, std::string_view name, const OpArgs& args,
                               Direction direction) {
  FamilyOutput out;
  switch (model) {
    case ModelClass::kPerGroupQuant:
      out = per_group_quant(args);
      break;
    case ModelClass::kVllmTritonGroupQuantFp8:
      out = vllm_triton_group_quant_fp8(args);
      break;
    default:
      out = mxfp4_quant(model, args);
      break;
  }
  if (direction == Direction::kBackward) {
    not_implemented(std::string("Backward pass for ").append(name).append(" is not defined."));
  }
  return out;
}

}  // namespace loupe::core::prepare::perf::detail
