// MoE auxiliary kernels (MoE_aux; docs/contracts/trace_model.md §3.9.2): token sort/scatter
// (aiter::moe_sorting_fwd, aiter::mxfp4_moe_sort_hip) and grouped top-k routing
// (aiter::biased_grouped_topk_hip). Both classes read every tensor operand of the op: one flop
// per element of the largest operand, bytes summed over all operands.
#include <algorithm>

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

// SGLang's fused_append_shared_experts: appends the shared experts to the router's
// (ids [M, k], weights [M, k]) pair, reading and rewriting both (4-byte elements unless the
// dtype says otherwise); one flop per id. Compute spec from the weights' dtype.
FamilyOutput append_shared_experts(std::string_view name, const OpArgs& args, Direction direction) {
  const Json& dims = required(args.input_dims, "Input Dims");
  const Json& types = required(args.input_types, "Input type");
  const Shape ids = shape_of(at(dims, 0, "Input Dims"), "ids");
  const bool has_weights =
      dims.size() > 1 && dims.as_array()[1].is_array() && dims.as_array()[1].size() > 0;
  const Shape weights = has_weights ? shape_of(dims.as_array()[1], "weights") : ids;
  // The two must broadcast (right-aligned, equal or 1).
  for (std::size_t i = 1; i <= std::min(ids.size(), weights.size()); ++i) {
    const auto a = ids[ids.size() - i], b = weights[weights.size() - i];
    if (a != b && a != 1 && b != 1) fail("Shapes not broadcastable");
  }
  const std::size_t num_types = types.is_array() ? types.size() : 0;
  const std::string dtype_ids = num_types > 0 ? string_at(types, 0, "Input type") : "int";
  const std::string dtype_wts = num_types > 1 ? string_at(types, 1, "Input type") : "float";

  FamilyOutput out;
  out.params.emplace_back("shape_in1", py_tuple(ids));
  out.params.emplace_back("shape_in2", py_tuple(weights));
  out.params.emplace_back("dtype_in1_in2_out",
                          tuple_of({py_str(dtype_ids), py_str(dtype_wts), py_str(dtype_wts)}));
  for (const char* key : {"stride_input1", "stride_input2", "stride_output"}) {
    out.params.emplace_back(key, py_none());
  }
  if (!dtype_wts.empty()) {
    out.precision_dtype = dtype_wts;
    out.has_precision_dtype = true;
  }
  if (direction == Direction::kBackward) {
    fail(std::string("no backward model for ").append(name));  // no flops_bwd in TraceLens
  }
  out.flops = I(prod(ids));
  const PyInt bpe_ids = bytes_per_element(dtype_ids).value_or(4);
  const PyInt bpe_wts = bytes_per_element(dtype_wts).value_or(4);
  out.bytes = I(2 * (prod(ids) * bpe_ids + prod(weights) * bpe_wts));
  return out;
}

}  // namespace

FamilyOutput moe_aux_model(ModelClass model, std::string_view name, const OpArgs& args,
                           Direction direction) {
  if (model == ModelClass::kAppendSharedExperts) {
    return append_shared_experts(name, args, direction);
  }
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

  // bytes: every operand whose dtype has a known size; an operand without a dtype (the types
  // list is shorter, or null) counts nothing, a dtype that is not a string makes the size
  // lookup fail (name2bpe lower-cases it); a zero total is None.
  PyInt total = 0;
  for (const auto& op : operands) {
    if (op.dtype == nullptr || op.dtype->is_null()) continue;
    if (!op.dtype->is_string()) fail("operand dtype is not a string");
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
