// Memory-bound serving-engine ops with TraceLens's formulas (docs/deviations.md,
// "Serving-engine ops"):
//   * SGLang's store_cache: K and V rows [T, D] scattered into the paged KV cache: no flops,
//     bytes = 4 * T * D elements (K and V read, the touched cache rows written) at K's width
//     (2 bytes when unknown);
//   * AITER's mixed_sample_outer_exponential (exponential-noise sampling over the vocabulary):
//     logits [T, V] = Input Dims[1] and the noise [2] read, one int32 token id per row written;
//     flops = 2 * T * V.
#include "model_support.hpp"

namespace loupe::core::prepare::perf::detail {
namespace {

std::string type_at(const Json& types, std::size_t i, const char* fallback) {
  if (!types.is_array() || types.size() <= i) return fallback;
  const Json& v = types.as_array()[i];
  return v.is_string() ? v.as_string() : std::string();
}

FamilyOutput store_cache(const OpArgs& args) {
  const Shape k = shape_of(at(required(args.input_dims, "Input Dims"), 0, "Input Dims"), "k");
  const std::string& dtype = string_at(required(args.input_types, "Input type"), 0, "Input type");
  const PyInt nelems = prod(k);
  FamilyOutput out;
  out.params.emplace_back("op_shape", py_tuple(k));
  out.params.emplace_back("nelems", py_int(static_cast<std::int64_t>(nelems)));
  out.params.emplace_back("dtype", py_str(dtype));
  set_precision(out, dtype);
  out.flops = I(0);
  out.bytes = I(4 * nelems * bytes_per_element(dtype).value_or(2));
  return out;
}

FamilyOutput mixed_sample(const OpArgs& args) {
  const Shape logits =
      shape_of(at(required(args.input_dims, "Input Dims"), 1, "Input Dims"), "logits");
  const Json& types = required(args.input_types, "Input type");
  if (!types.is_array()) fail("Input type: not a list");
  const std::int64_t t = !logits.empty() ? logits[0] : 1;
  const std::int64_t v = logits.size() >= 2 ? logits[1] : 1;
  const std::string dtype_logits = type_at(types, 1, "c10::bfloat16");
  const std::string dtype_noise = type_at(types, 2, "float");
  FamilyOutput out;
  out.params.emplace_back("T", py_int(t));
  out.params.emplace_back("V", py_int(v));
  out.params.emplace_back("dtype_logits", py_str(dtype_logits));
  out.params.emplace_back("dtype_noise", py_str(dtype_noise));
  set_precision(out, dtype_logits);
  const PyInt T = t, V = v;
  out.flops = I(2 * T * V);
  const auto bpe_logits = bytes_per_element(dtype_logits);
  const auto bpe_noise = bytes_per_element(dtype_noise);
  if (bpe_logits && bpe_noise) out.bytes = I(T * V * *bpe_logits + T * V * *bpe_noise + T * 4);
  return out;
}

}  // namespace

FamilyOutput serving_memory_model(ModelClass model, std::string_view name, const OpArgs& args,
                                  Direction direction) {
  FamilyOutput out = model == ModelClass::kStoreCache ? store_cache(args) : mixed_sample(args);
  if (direction == Direction::kBackward) {
    not_implemented(std::string("Backward pass for ").append(name).append(" is not defined."));
  }
  return out;
}

}  // namespace loupe::core::prepare::perf::detail
