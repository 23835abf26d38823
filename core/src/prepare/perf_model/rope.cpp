// Rotary position embedding kernels of the serving engines (docs/deviations.md, "Serving-engine
// ops"), TraceLens's FusedRoPE formulas: each rotated element pair costs 4 multiplies and 2
// adds (3 flops per element), and every rotated element is read and written once.
//   * AITER's two-channel RoPE with cached positions: Q = Input Dims[2], K = [3], both rotated;
//     bytes at the width of Input type[0];
//   * SGLang's rotary_embedding (in place on Q [T, H_q*d] = [1] and K = [2]): only the rotary
//     slice of each head (the cos/sin cache's width [4][1]) is rotated; the head size is
//     Concrete Inputs[3] when given; bytes at Q's width;
//   * AITER's MLA RoPE fused with the KV-cache write (cat / concat): RoPE on the positional
//     slices of Q and K; bytes read Q and K (latent + positional), write Q and the written KV
//     rows (T tokens; the paged cache itself is not counted) at the cache's dtype. The concat
//     variant has one latent KV head and may write Q in its own dtype (Input type[5]).
// A width the dtype table does not know counts as 2 bytes (bf16), as TraceLens assumes.
#include "model_support.hpp"

namespace loupe::core::prepare::perf::detail {
namespace {

// Input type[i] as a string, "" when absent or not a string.
std::string type_at(const OpArgs& args, std::size_t i) {
  const Json& types = args.input_types;
  if (!types.is_array() || types.size() <= i || !types.as_array()[i].is_string()) return {};
  return types.as_array()[i].as_string();
}

FamilyOutput rope_two_channel(const OpArgs& args) {
  const Json& dims = required(args.input_dims, "Input Dims");
  const Shape x = shape_of(at(dims, 2, "Input Dims"), "input_x");
  const Shape y = shape_of(at(dims, 3, "Input Dims"), "input_y");
  const PyInt n = prod(x) + prod(y);
  FamilyOutput out;
  out.params.emplace_back("x_shape", py_tuple(x));
  out.params.emplace_back("y_shape", py_tuple(y));
  out.params.emplace_back("num_elements", py_int(static_cast<std::int64_t>(n)));
  const std::string dtype = type_at(args, 0);
  set_precision(out, dtype);
  const PyInt bpe = bytes_per_element(dtype.empty() ? "c10::BFloat16" : dtype).value_or(2);
  out.flops = I(3 * n);
  out.bytes = I(2 * n * bpe);
  return out;
}

FamilyOutput rotary_embedding(const OpArgs& args) {
  const Json& dims = required(args.input_dims, "Input Dims");
  const Shape q = shape_of(at(dims, 1, "Input Dims"), "query");
  const Shape k = shape_of(at(dims, 2, "Input Dims"), "key");
  if (q.size() < 2 || k.size() < 2) fail("rotary_embedding: query/key must be 2-D");
  PyInt head_size = q.back();
  const Json& concrete = args.concrete_inputs;
  if (concrete.is_array() && concrete.size() > 3 && concrete.as_array()[3].is_string()) {
    const std::string& text = concrete.as_array()[3].as_string();
    if (text.find_first_not_of(" \t\n\r\f\v") != std::string::npos) head_size = py_int_of(text);
  }
  PyInt rot_dim = head_size;
  if (dims.size() > 4 && dims.as_array()[4].is_array() && dims.as_array()[4].size() > 1) {
    rot_dim = shape_of(dims.as_array()[4], "cos_sin_cache")[1];
  }
  const PyInt n = PyInt{q[0]} * (floor_div(q[1], head_size) + floor_div(k[1], head_size)) * rot_dim;
  FamilyOutput out;
  out.params.emplace_back("num_elements", py_int(static_cast<std::int64_t>(n)));
  const std::string& q_dtype = string_at(required(args.input_types, "Input type"), 1, "Input type");
  set_precision(out, q_dtype);
  out.flops = I(3 * n);
  out.bytes = I(2 * n * bytes_per_element(q_dtype).value_or(2));
  return out;
}

FamilyOutput rope_and_cache_mla(ModelClass model, const OpArgs& args) {
  const bool concat = model == ModelClass::kRopeConcatAndCacheMla;
  const Json& dims = required(args.input_dims, "Input Dims");
  const Json& types = required(args.input_types, "Input type");
  const Shape q_nope = shape_of(at(dims, 0, "Input Dims"), "q_nope");
  const Shape q_pe = shape_of(at(dims, 1, "Input Dims"), "q_pe");
  if (q_nope.size() != 3 || q_pe.size() < 3) fail("MLA RoPE: q_nope / q_pe must be 3-D");
  const std::int64_t t = q_nope[0], qh = q_nope[1], d_lora = q_nope[2], d_pe = q_pe[2];
  std::int64_t kh = 1;  // concat: one latent KV head (kv_c / k_pe are 2-D)
  if (!concat) {
    const Shape k_nope = shape_of(at(dims, 2, "Input Dims"), "k_nope");
    if (k_nope.size() < 2) fail("MLA RoPE: k_nope must be 3-D");
    kh = k_nope[1];
  }
  const std::string& dtype_in = string_at(types, 0, "Input type");
  const std::string dtype_kv = type_at(args, 4).empty() ? dtype_in : type_at(args, 4);
  const std::string dtype_out = type_at(args, 5).empty() ? dtype_in : type_at(args, 5);

  FamilyOutput out;
  const std::pair<const char*, std::int64_t> sizes[] = {
      {"T", t}, {"QH", qh}, {"KH", kh}, {"D_lora", d_lora}, {"D_pe", d_pe}};
  for (const auto& [key, value] : sizes) out.params.emplace_back(key, py_int(value));
  out.params.emplace_back("dtype_in", py_str(dtype_in));
  out.params.emplace_back("dtype_kv", py_str(dtype_kv));
  if (concat) out.params.emplace_back("dtype_out", py_str(dtype_out));
  set_precision(out, dtype_in);

  const PyInt T = t, QH = qh, KH = kh, L = d_lora, P = d_pe;
  out.flops = I(3 * (T * QH * P + T * KH * P));
  const auto bpe_in = bytes_per_element(dtype_in);
  if (!bpe_in) return out;  // unknown input width: bytes None
  const PyInt bpe_kv = bytes_per_element(dtype_kv).value_or(*bpe_in);
  const PyInt bpe_out = concat ? bytes_per_element(dtype_out).value_or(*bpe_in) : *bpe_in;
  out.bytes = I((T * QH * L + T * QH * P) * *bpe_in + (T * KH * L + T * KH * P) * *bpe_in +
                T * QH * (L + P) * bpe_out + T * KH * (L + P) * bpe_kv);
  return out;
}

}  // namespace

FamilyOutput rope_model(ModelClass model, std::string_view name, const OpArgs& args,
                        Direction direction) {
  FamilyOutput out;
  switch (model) {
    case ModelClass::kRopeCachedPositions2c:
      out = rope_two_channel(args);
      break;
    case ModelClass::kRotaryEmbeddingSgl:
      out = rotary_embedding(args);
      break;
    default:  // kRopeCatAndCacheMla, kRopeConcatAndCacheMla
      out = rope_and_cache_mla(model, args);
      break;
  }
  if (direction == Direction::kBackward) {
    not_implemented(std::string("Backward pass for ").append(name).append(" is not defined."));
  }
  return out;
}

}  // namespace loupe::core::prepare::perf::detail
