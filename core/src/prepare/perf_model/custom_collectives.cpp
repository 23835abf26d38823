// The serving engines' custom collectives with TraceLens's formulas (docs/deviations.md,
// "Serving-engine ops"), category CustomCollective: the on-chip part of a collective, the HBM
// traffic of one GPU (the inter-GPU transfer is not a roofline matter), no compute spec.
//   * all-reduce (vLLM's and SGLang's custom / quick all-reduce): input [1] read, the output
//     written at the same size: 2 n elements, no flops;
//   * reduce-scatter and all-gather (AITER, SGLang's registered all-gather): the input shard
//     read and the output written, each at its own size, no flops;
//   * AITER's all-reduce fused with residual add and RMSNorm: the add (n flops) and RMSNorm's
//     formula (rows·(2N + 2) + 2n); bytes read the input, the residual and the weight, write the
//     new residual and the output.
#include "model_support.hpp"

namespace loupe::core::prepare::perf::detail {
namespace {

struct CollectiveLayout {
  std::size_t input;                  // the local tensor
  std::optional<std::size_t> out;     // a second tensor of its own size
  std::optional<std::size_t> weight;  // the RMSNorm weight [N]
  bool strided = true;                // whether the model reads the input's stride
  bool out_first = false;             // params name out_shape before op_shape
};

CollectiveLayout collective_layout_of(ModelClass model) {
  switch (model) {
    case ModelClass::kAllReduceRmsnorm:
      return {2, std::nullopt, 6, true, false};
    case ModelClass::kAllReduceRmsnormPy:
      return {0, std::nullopt, 2, true, false};
    case ModelClass::kCustomShardCollective:
      return {1, 2, std::nullopt, true, false};
    case ModelClass::kRegAllGatherIntoTensor:
      return {1, 0, std::nullopt, false, true};
    default:  // kCustomAllReduce
      return {1, std::nullopt, std::nullopt, true, false};
  }
}

}  // namespace

FamilyOutput custom_collective_model(ModelClass model, std::string_view name, const OpArgs& args,
                                     Direction direction) {
  const CollectiveLayout l = collective_layout_of(model);
  const Json& dims = required(args.input_dims, "Input Dims");
  const Json& types = required(args.input_types, "Input type");
  FamilyOutput out;
  std::optional<Shape> out_shape;
  if (l.out && l.out_first) out_shape = shape_of(at(dims, *l.out, "Input Dims"), "out");
  const Shape shape = shape_of(at(dims, l.input, "Input Dims"), "input");
  if (l.out && !l.out_first) out_shape = shape_of(at(dims, *l.out, "Input Dims"), "out");
  const std::size_t dtype_at = model == ModelClass::kRegAllGatherIntoTensor ? 0 : l.input;
  const std::string& dtype = string_at(types, dtype_at, "Input type");
  if (out_shape && l.out_first) out.params.emplace_back("out_shape", py_tuple(*out_shape));
  out.params.emplace_back("op_shape", py_tuple(shape));
  if (out_shape && !l.out_first) out.params.emplace_back("out_shape", py_tuple(*out_shape));
  out.params.emplace_back("dtype_in", py_str(dtype));
  if (l.strided) {
    out.params.emplace_back(
        "stride_input",
        py_tuple(at(required(args.input_strides, "Input Strides"), l.input, "Input Strides")));
  }
  std::int64_t channels = 0;
  if (l.weight) {
    const Shape weight = shape_of(at(dims, *l.weight, "Input Dims"), "weight");
    if (weight.empty()) fail("weight has no dimension");
    channels = weight[0];
    out.params.emplace_back("num_channels", py_int(channels));
  }
  if (direction == Direction::kBackward) {
    not_implemented(std::string("Backward pass for ").append(name).append(" is not defined."));
  }

  const PyInt n = prod(shape);
  const auto bpe_opt = bytes_per_element(dtype);
  if (!bpe_opt) fail("unknown bytes per element");  // None * int raises in TraceLens
  const PyInt bpe = *bpe_opt;
  if (l.weight) {
    const PyInt c = channels;
    if (c == 0) fail("integer division by zero: no channels");
    PyInt rows = n / c;
    if ((n % c != 0) && ((n < 0) != (c < 0))) --rows;
    out.flops = I(n + rows * (2 * c + 2) + n * 2);
    out.bytes = I(2 * n * bpe + c * bpe + 2 * n * bpe);
  } else if (out_shape) {
    out.flops = I(0);
    out.bytes = I((n + prod(*out_shape)) * bpe);
  } else {
    out.flops = I(0);
    out.bytes = I(2 * n * bpe);
  }
  return out;
}

}  // namespace loupe::core::prepare::perf::detail
