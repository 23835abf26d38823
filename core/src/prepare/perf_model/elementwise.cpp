// Elementwise models (docs/contracts/trace_model.md §3.9.6): unary (incl. upsample_nearest /
// replication_pad) and binary ops with numpy broadcasting.
#include <algorithm>

#include "model_support.hpp"

namespace loupe::core::prepare::perf::detail {
namespace {

std::optional<int> bpe_of_string(const std::string& dtype) { return bytes_per_element(dtype); }

FamilyOutput unary(const OpArgs& args) {
  const Json& dims = required(args.input_dims, "Input Dims");
  const Json& types = required(args.input_types, "Input type");
  const Json& strides = required(args.input_strides, "Input Strides");
  const Shape shape = shape_of(at(dims, 0, "Input Dims"), "input");
  const std::string& dtype_in = string_at(types, 0, "Input type");
  const PyValue stride_in = py_tuple(at(strides, 0, "Input Strides"));
  std::optional<std::string> dtype_out;
  PyValue stride_out;
  if (dims.size() > 1 && dims.as_array()[1].is_array() && dims.as_array()[1].size() > 0) {
    dtype_out = string_at(types, 1, "Input type");
    stride_out = py_tuple(at(strides, 1, "Input Strides"));
  }
  FamilyOutput out;
  out.params.emplace_back("op_shape", py_tuple(shape));
  out.params.emplace_back("dtype_in_out",
                          tuple_of({py_str(dtype_in), dtype_out ? py_str(*dtype_out) : py_none()}));
  out.params.emplace_back("stride_input", stride_in);
  out.params.emplace_back("stride_output", stride_out);
  out.precision_dtype = dtype_in;
  out.has_precision_dtype = true;

  const PyInt nelems = prod(shape);
  out.flops = I(nelems);
  const auto bpe_in = bpe_of_string(dtype_in);
  const auto bpe_out = dtype_out ? bpe_of_string(*dtype_out) : bpe_in;
  if (bpe_in && bpe_out) out.bytes = I(nelems * *bpe_in + nelems * *bpe_out);
  return out;
}

// upsample_nearest{1,2,3}d / replication_pad{1,2,3}d: the output shape comes from the sizes
// (resp. padding pairs, innermost dimension first) in Concrete Inputs[1].
FamilyOutput resize(ModelClass model, const OpArgs& args) {
  const Json& dims = required(args.input_dims, "Input Dims");
  const Json& types = required(args.input_types, "Input type");
  const Json& strides = required(args.input_strides, "Input Strides");
  const Json& concrete = required(args.concrete_inputs, "Concrete Inputs");
  const Shape in = shape_of(at(dims, 0, "Input Dims"), "input");
  const std::string& dtype = string_at(types, 0, "Input type");
  const auto sizes = parse_int_list(string_at(concrete, 1, "Concrete Inputs"));
  Shape y;
  if (model == ModelClass::kUpsampleNearest) {
    if (in.size() < 2) fail("upsample input rank < 2");
    y = {in[0], in[1]};
    y.insert(y.end(), sizes.begin(), sizes.end());
  } else {
    y = in;
    for (std::size_t pair = 0; 2 * pair + 1 < sizes.size(); ++pair) {
      if (pair >= y.size()) fail("padding longer than the input rank");
      y[y.size() - 1 - pair] += sizes[2 * pair] + sizes[2 * pair + 1];
    }
  }
  FamilyOutput out;
  out.params.emplace_back("input_shape", py_tuple(in));
  out.params.emplace_back("output_shape", py_tuple(y));
  out.params.emplace_back("op_shape", py_tuple(y));
  out.params.emplace_back("dtype_in_out", tuple_of({py_str(dtype), py_str(dtype)}));
  out.params.emplace_back("stride_input", py_tuple(at(strides, 0, "Input Strides")));
  out.params.emplace_back("stride_output", py_none());
  out.precision_dtype = dtype;
  out.has_precision_dtype = true;
  out.flops = I(prod(y));
  if (const auto bpe = bpe_of_string(dtype)) out.bytes = I(prod(in) * *bpe + prod(y) * *bpe);
  return out;
}

// aten's binary ops take an explicit output as a third operand; Liger's SiLU-mul does not.
FamilyOutput binary(const OpArgs& args, bool explicit_output) {
  const Json& dims = required(args.input_dims, "Input Dims");
  const Json& types = required(args.input_types, "Input type");
  const Json& strides = required(args.input_strides, "Input Strides");
  const Shape s1 = shape_of(at(dims, 0, "Input Dims"), "in1");
  const Shape s2 = shape_of(at(dims, 1, "Input Dims"), "in2");
  const std::string& dtype1 = string_at(types, 0, "Input type");
  const std::string& dtype2 = string_at(types, 1, "Input type");
  const PyValue stride1 = py_tuple(at(strides, 0, "Input Strides"));
  const PyValue stride2 = py_tuple(at(strides, 1, "Input Strides"));
  std::optional<std::string> dtype_out;
  PyValue stride_out;
  if (explicit_output && dims.size() > 2 && dims.as_array()[2].is_array() &&
      dims.as_array()[2].size() > 0) {
    dtype_out = string_at(types, 2, "Input type");
    stride_out = py_tuple(at(strides, 2, "Input Strides"));
  }
  FamilyOutput out;
  out.params.emplace_back("shape_in1", py_tuple(s1));
  out.params.emplace_back("shape_in2", py_tuple(s2));
  out.params.emplace_back(
      "dtype_in1_in2_out",
      tuple_of({py_str(dtype1), py_str(dtype2), dtype_out ? py_str(*dtype_out) : py_none()}));
  out.params.emplace_back("stride_input1", stride1);
  out.params.emplace_back("stride_input2", stride2);
  out.params.emplace_back("stride_output", stride_out);
  out.precision_dtype = dtype1;
  out.has_precision_dtype = true;

  // numpy broadcasting.
  const std::size_t ndim = std::max(s1.size(), s2.size());
  PyInt nelems_out = 1;
  for (std::size_t i = 0; i < ndim; ++i) {
    const std::int64_t d1 = i < ndim - s1.size() ? 1 : s1[i - (ndim - s1.size())];
    const std::int64_t d2 = i < ndim - s2.size() ? 1 : s2[i - (ndim - s2.size())];
    if (d1 != d2 && d1 != 1 && d2 != 1) fail("Shapes not broadcastable");
    nelems_out *= std::max(d1, d2);
  }
  out.flops = I(nelems_out);

  const auto bpe1 = bpe_of_string(dtype1);
  const auto bpe2 = bpe_of_string(dtype2);
  std::optional<int> bpe_out;
  if (dtype_out) {
    bpe_out = bpe_of_string(*dtype_out);
  } else if (bpe1 && bpe2) {
    bpe_out = (!s1.empty() && !s2.empty()) ? std::max(*bpe1, *bpe2) : *bpe1;
  }
  if (bpe1 && bpe2 && bpe_out) {
    out.bytes = I(prod(s1) * *bpe1 + prod(s2) * *bpe2 + nelems_out * *bpe_out);
  }
  return out;
}

}  // namespace

FamilyOutput elementwise_model(ModelClass model, std::string_view name, const OpArgs& args,
                               Direction direction) {
  FamilyOutput out = model == ModelClass::kBinaryElementwise  ? binary(args, true)
                     : model == ModelClass::kLigerSiLUMul     ? binary(args, false)
                     : model == ModelClass::kUnaryElementwise ? unary(args)
                                                              : resize(model, args);
  if (direction == Direction::kBackward) {
    // The elementwise classes define no backward formulas (AttributeError in TraceLens).
    fail(std::string("no backward model for ").append(name));
  }
  return out;
}

}  // namespace loupe::core::prepare::perf::detail
