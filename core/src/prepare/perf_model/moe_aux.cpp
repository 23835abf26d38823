// MoE auxiliary kernels (MoE_aux; docs/contracts/trace_model.md §3.9.2): token sort/scatter
// (aiter::moe_sorting_fwd, aiter::mxfp4_moe_sort_hip) and grouped top-k routing
// (aiter::biased_grouped_topk_hip). Both classes read every tensor operand of the op: one flop
// per element of the largest operand, bytes summed over all operands.
#include "model_support.hpp"

namespace loupe::core::prepare::perf::detail {
namespace {

struct Operand {
  Shape shape;
  const Json* dtype = nullptr;  // nullptr = no Input type entry (None)
};

// A dims entry that is a non-empty list of ints; other lists are skipped, scalars fail as
// Python's iteration over them would.
std::optional<Shape> operand_shape(const Json& entry) {
  if (entry.is_array()) {
    if (entry.size() == 0) return std::nullopt;
    Shape shape;
    for (const auto& d : entry.as_array()) {
      if (d.is_int()) {
        shape.push_back(d.as_int());
      } else if (d.is_bool()) {
        shape.push_back(d.as_bool() ? 1 : 0);
      } else {
        return std::nullopt;
      }
    }
    return shape;
  }
  if (entry.is_null()) return std::nullopt;
  if (entry.is_string() || entry.is_object()) return std::nullopt;
  fail("Input Dims entry is not iterable");
}

std::vector<Operand> operands_of(const Json& dims, const Json& types) {
  std::vector<Operand> out;
  if (!dims.is_array()) fail("Input Dims is not a list");
  const std::size_t num_types = types.is_array() ? types.size() : 0;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    auto shape = operand_shape(dims.as_array()[i]);
    if (!shape) continue;
    out.push_back({std::move(*shape), i < num_types ? &types.as_array()[i] : nullptr});
  }
  return out;
}

PyValue operands_param(const std::vector<Operand>& operands) {
  std::vector<PyValue> items;
  items.reserve(operands.size());
  for (const auto& op : operands) {
    items.push_back(
        tuple_of({py_tuple(op.shape), op.dtype != nullptr ? py(*op.dtype) : py_none()}));
  }
  return list_of(std::move(items));
}

}  // namespace

FamilyOutput moe_aux_model(ModelClass model, std::string_view name, const OpArgs& args,
                           Direction direction) {
  if (direction == Direction::kBackward) {
    not_implemented(std::string("no backward formulas for ").append(name));
  }
  // The sort model reads the dims with a default; the top-k model indexes them (KeyError).
  if (model == ModelClass::kBiasedGroupedTopk) required(args.input_dims, "Input Dims");
  const Json empty = Json::array();
  const std::vector<Operand> operands =
      operands_of(args.input_dims.is_null() ? empty : args.input_dims, args.input_types);

  FamilyOutput out;
  out.params.emplace_back("operands", operands_param(operands));

  // flops: the element count of the largest operand (the first one on ties).
  const Operand* largest = nullptr;
  PyInt largest_elems = 0;
  for (const auto& op : operands) {
    const PyInt elems = prod(op.shape);
    if (largest == nullptr || elems > largest_elems) {
      largest = &op;
      largest_elems = elems;
    }
  }
  out.flops = I(largest_elems);

  // bytes: every operand whose dtype has a known size; a missing or non-string dtype makes
  // the size lookup fail (name2bpe lower-cases it); a zero total is None.
  PyInt total = 0;
  for (const auto& op : operands) {
    if (op.dtype == nullptr || !op.dtype->is_string()) fail("operand dtype is not a string");
    if (const auto bpe = bytes_per_element(op.dtype->as_string())) total += prod(op.shape) * *bpe;
  }
  if (total > 0) out.bytes = I(total);

  if (largest != nullptr && largest->dtype != nullptr && largest->dtype->is_string() &&
      !largest->dtype->as_string().empty()) {
    out.precision_dtype = largest->dtype->as_string();
    out.has_precision_dtype = true;
  }
  return out;
}

}  // namespace loupe::core::prepare::perf::detail
