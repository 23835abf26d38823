// Gated activations of the serving engines (docs/deviations.md, "Serving-engine ops"):
// aiter / vLLM / SGLang silu_and_mul, gelu_and_mul, gelu_tanh_and_mul(out, input) with
// out[..., d] = act(input[..., :d]) * input[..., d:]. The input holds twice the output's
// elements; flops per output element: silu 5, erf gelu 8, tanh gelu 10.
#include "model_support.hpp"

namespace loupe::core::prepare::perf::detail {

FamilyOutput gated_activation_model(ModelClass model, std::string_view name, const OpArgs& args,
                                    Direction direction) {
  const Json& dims = required(args.input_dims, "Input Dims");
  const Json& types = required(args.input_types, "Input type");
  const Json& strides = required(args.input_strides, "Input Strides");
  // Argument 0 is the output, argument 1 the gate+up input.
  const Shape op_shape = shape_of(at(dims, 0, "Input Dims"), "out");
  const std::string& dtype_in = string_at(types, 1, "Input type");
  const std::string& dtype_out = string_at(types, 0, "Input type");
  FamilyOutput out;
  out.params.emplace_back("op_shape", py_tuple(op_shape));
  out.params.emplace_back("dtype_in_out", tuple_of({py_str(dtype_in), py_str(dtype_out)}));
  out.params.emplace_back("stride_input", py_tuple(at(strides, 1, "Input Strides")));
  out.params.emplace_back("stride_output", py_tuple(at(strides, 0, "Input Strides")));
  out.precision_dtype = dtype_in;
  out.has_precision_dtype = true;
  if (direction == Direction::kBackward) {
    fail(std::string("no backward model for ").append(name));
  }
  const PyInt nelems = prod(op_shape);
  const PyInt per_element = model == ModelClass::kGatedGeluTanh ? 10
                            : model == ModelClass::kGatedGelu   ? 8
                                                                : 5;
  out.flops = I(per_element * nelems);
  const auto bpe_in = bytes_per_element(dtype_in);
  const auto bpe_out = bytes_per_element(dtype_out);
  // An unknown width is a failed model here (the formula multiplies it), not unknown bytes.
  if (!bpe_in || !bpe_out) fail("gated activation dtype without a byte width");
  out.bytes = I(2 * nelems * *bpe_in + nelems * *bpe_out);
  return out;
}

}  // namespace loupe::core::prepare::perf::detail
