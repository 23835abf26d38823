// AITER's MoE kernels with TraceLens's formulas (docs/deviations.md, "Serving-engine ops"), for
// M tokens of hidden size K, intermediate size N, E experts, top-k routing, gated (SwiGLU) when
// the first weight holds 2N rows:
//   fused (fmoe / fused_moe_1stage, MoE_fused): flops = 2MKN·k·(2 if gated) + 2MKN·k +
//     MK(2k − 1) (the weighted sum of the experts' outputs); bytes = input MK, both weights of
//     the experts a uniform router activates, E_active = E·(1 − ((E − k)/E)^M), output MK;
//   stage 1 / up (ck_moe_stage1, cktile2stages gemm1, MoE_unfused): flops = 2MKN·k·(2 if
//     gated); bytes = input MK, E_active·(2 if gated)·KN weights, output MNk;
//   stage 2 / down (ck_moe_stage2, cktile2stages gemm2): flops = 2MNK·k; bytes = input MNk,
//     E_active·NK weights, output MK.
// Byte widths come from TraceLens's MoE dtype table (exact spellings, FP4 0.5 B) with each
// kernel's defaults; packed FP4/INT4 weights are unpacked by the ratio of the hidden size to the
// first weight's stored K. Each kernel reads its own argument layout (see the layout functions).
#include <cmath>
#include <initializer_list>
#include <utility>

#include "loupe/text.hpp"
#include "model_support.hpp"

namespace loupe::core::prepare::perf::detail {
namespace {

// TraceLens's MoE dtype table: exact spellings only.
std::optional<double> moe_table_bytes(const std::string& dtype) {
  static const std::pair<const char*, double> kTable[] = {{"Float8_e4m3fn", 1},
                                                          {"Float8_e4m3fnuz", 1},
                                                          {"Float8_e5m2", 1},
                                                          {"Float8_e5m2fnuz", 1},
                                                          {"FP8", 1},
                                                          {"FP4", 0.5},
                                                          {"BFloat16", 2},
                                                          {"Float16", 2},
                                                          {"Half", 2},
                                                          {"Float32", 4},
                                                          {"Float", 4},
                                                          {"c10::BFloat16", 2},
                                                          {"c10::Float8_e4m3fn", 1},
                                                          {"c10::Float8_e4m3fnuz", 1},
                                                          {"c10::Float4_e2m1fn_x2", 0.5},
                                                          {"c10::Half", 2},
                                                          {"c10::Float", 4}};
  for (const auto& [name, bytes] : kTable) {
    if (dtype == name) return bytes;
  }
  return std::nullopt;
}

// A Python number from a byte width that may be fractional (0.5 for FP4).
FormulaNumber width(double bytes) {
  return bytes == std::floor(bytes) ? I(static_cast<PyInt>(bytes)) : F(bytes);
}

struct Moe {
  std::int64_t tokens = 0, hidden = 0, inter = 0, experts = 0, topk = 0;
  std::optional<bool> gated;  // nullopt: the class names no gating (the down stage)
  std::string input_dtype, weight_dtype;
  std::optional<std::string> output_dtype;  // nullopt: the class names none
  double input_default = 2, weight_default = 1, output_default = 2;
  bool output_as_input = false;        // the output is written in the input's width
  bool precision_from_weight = false;  // the compute spec follows the weights' dtype
  // How weight_dtype appears among the params: the dtype, None (unknown), or not at all.
  enum class WeightParam : std::uint8_t {
    kDtype,
    kNone,
    kAbsent
  } weight_param = WeightParam::kDtype;
  std::optional<double> weight_width;  // a fixed weight width (INT4: 0.5), else the table's
  bool strict_widths = false;          // input and weight dtypes must be in the table
};

// A shape of exactly `n` dimensions (Python's tuple unpacking).
Shape exact(const Json& dims, std::size_t i, std::size_t n, std::string_view what) {
  Shape s = shape_of(at(dims, i, "Input Dims"), what);
  if (s.size() != n) fail(std::string(what).append(": unexpected rank"));
  return s;
}

std::string type_string(const OpArgs& args, std::size_t i) {
  return string_at(required(args.input_types, "Input type"), i, "Input type");
}

// w1 [E, N·(gated+1), K_packed] and w2 [E, K, N_packed]: hidden and intermediate from w2, the
// packing ratio from w1.
void from_weights(Moe& m, const Shape& w1, const Shape& w2) {
  m.experts = w1[0];
  m.hidden = w2[1];
  m.inter = w2[2] * static_cast<std::int64_t>(floor_div(m.hidden, w1.back()));
  m.gated = w1[1] == 2 * m.inter;
}

Moe fused_1stage(const OpArgs& args) {
  // [[M, K], w1, w2, [M, k], ...]: (input, w1, w2, topk weights).
  const Json& dims = required(args.input_dims, "Input Dims");
  Moe m;
  const Shape input = shape_of(at(dims, 0, "Input Dims"), "input");
  if (input.empty()) fail("input: no dimension");
  m.tokens = input[0];
  from_weights(m, exact(dims, 1, 3, "w1"), exact(dims, 2, 3, "w2"));
  const Shape topk = shape_of(at(dims, 3, "Input Dims"), "topk_weights");
  if (topk.size() < 2) fail("topk_weights: no k");
  m.topk = topk[1];
  m.input_dtype = type_string(args, 0);
  m.weight_dtype = type_string(args, 1);
  m.output_as_input = true;
  return m;
}

// A pseudo op's own arg (KeyError when absent).
const Json& pseudo_arg(const OpArgs& args, const char* key) {
  const Json* v = args.pseudo_args.is_object() ? args.pseudo_args.find(key) : nullptr;
  if (v == nullptr) fail(std::string("'").append(key).append("' not found in event args"));
  return *v;
}
std::int64_t arg_int(const Json& v) {
  if (v.is_int()) return v.as_int();
  if (v.is_bool()) return v.as_bool() ? 1 : 0;
  fail("pseudo-op arg is not an integer");
}
bool arg_truthy(const Json& v) {
  if (v.is_bool()) return v.as_bool();
  if (v.is_int()) return v.as_int() != 0;
  if (v.is_string()) return !v.as_string().empty();
  return !v.is_null();
}

// vLLM's Triton MoE (GPT-OSS) pseudo ops under vllm::moe_forward: hidden states [T, H] and
// router logits [T, E] only, so the intermediate size is taken equal to H; top-k and gating
// are the pseudo op's args, the weights' dtype (FP4 / FP8) the first kernel's name says. The
// input and weight dtypes must have a table width.
Moe triton_unfused(const OpArgs& args) {
  const Json& dims = required(args.input_dims, "Input Dims");
  if (!dims.is_array() || dims.size() < 2) fail("Expected at least 2 Input Dims for unfused MoE");
  const Shape input = shape_of(at(dims, 0, "Input Dims"), "input");
  const Shape router = shape_of(at(dims, 1, "Input Dims"), "router");
  if (input.size() < 2 || router.size() < 2) fail("unfused MoE shapes");
  Moe m;
  m.tokens = input[0];
  m.hidden = m.inter = input[1];
  m.experts = router[1];
  m.topk = arg_int(pseudo_arg(args, "MoE topk"));
  m.gated = arg_truthy(pseudo_arg(args, "MoE GEMM gated"));
  if (args.kernel_names.empty()) fail("Kernel details not found in event");
  const std::string kernel = text::ascii_lower(args.kernel_names.front());
  const auto has = [&](const char* s) { return kernel.find(s) != std::string::npos; };
  m.weight_param = Moe::WeightParam::kNone;
  if (has("mxfp4") || has("fp4")) {
    m.weight_dtype = "FP4", m.weight_param = Moe::WeightParam::kDtype;
  } else if (has("fp8") || has("e4m3")) {
    m.weight_dtype = "FP8", m.weight_param = Moe::WeightParam::kDtype;
  }
  const Json& types = args.input_types;
  if (!types.is_array() || types.size() < 2) fail("Expected at least 2 Input types");
  m.input_dtype = string_at(types, 0, "Input type");
  m.output_as_input = m.precision_from_weight = m.strict_widths = true;
  return m;
}

// vLLM's GPTQ/AWQ MoE pseudo ops (outplace_fused_experts): INT4 weights two per byte; up reads
// w1 [E, N·(gated+1), K/2] = [1], down w2 [E, K, N/2] = [2]; top-k (and gating, default True)
// are the pseudo op's args; activations bf16 when the op records no dtype.
Moe gptq_awq(const OpArgs& args, bool down) {
  const Json& dims = required(args.input_dims, "Input Dims");
  const Shape input = shape_of(at(dims, 0, "Input Dims"), "hidden_states");
  const Shape w = shape_of(at(dims, down ? 2 : 1, "Input Dims"), down ? "w2" : "w1");
  if (input.size() < 2 || w.size() < (down ? 3u : 2u)) fail("GPTQ/AWQ MoE shapes");
  Moe m;
  m.tokens = input[0];
  m.hidden = input[1];
  m.experts = w[0];
  m.topk = arg_int(pseudo_arg(args, "MoE topk"));
  if (down) {
    m.inter = w[2] * 2;
  } else {
    const Json* g =
        args.pseudo_args.is_object() ? args.pseudo_args.find("MoE GEMM gated") : nullptr;
    m.gated = g == nullptr || arg_truthy(*g);
    m.inter = *m.gated ? static_cast<std::int64_t>(floor_div(w[1], 2)) : w[1];
  }
  const Json& types = args.input_types;
  m.input_dtype = types.is_array() ? string_at(types, 0, "Input type") : "BFloat16";
  m.weight_param = Moe::WeightParam::kAbsent;
  m.weight_width = 0.5;
  m.output_as_input = true;
  return m;
}

// The flydsl stages read the enclosing aiter::fused_moe_'s arguments (fused_1stage's layout);
// the weights' dtype names the compute precision (MXFP4 matmuls on FP4 operands).
Moe flydsl_stage(const OpArgs& args) {
  Moe m = fused_1stage(args);
  m.precision_from_weight = true;
  return m;
}

Moe fused_blockscale(const OpArgs& args) {
  // (out [M, K], input [M, K], w1, w2, ...), k = Concrete Inputs[8].
  const Json& dims = required(args.input_dims, "Input Dims");
  Moe m;
  const Shape out = shape_of(at(dims, 0, "Input Dims"), "out");
  if (out.empty()) fail("out: no dimension");
  m.tokens = out[0];
  from_weights(m, exact(dims, 2, 3, "w1"), exact(dims, 3, 3, "w2"));
  const Json& concrete = args.concrete_inputs;
  if (!concrete.is_array() || concrete.size() <= 8 || !concrete.as_array()[8].is_string() ||
      concrete.as_array()[8].as_string().empty()) {
    fail("Cannot extract topk: Concrete Inputs[8] missing or empty");
  }
  m.topk = py_int_of(concrete.as_array()[8].as_string());
  m.output_dtype = type_string(args, 0);
  m.input_dtype = type_string(args, 1);
  m.weight_dtype = type_string(args, 2);
  m.input_default = 1;
  return m;
}

Moe cktile_up(const OpArgs& args) {
  // ([M, K], w1 [E, N·(gated+1), K_packed], out [M, k, N], ...).
  const Json& dims = required(args.input_dims, "Input Dims");
  Moe m;
  const Shape input = exact(dims, 0, 2, "input");
  const Shape w1 = exact(dims, 1, 3, "w1");
  const Shape out = exact(dims, 2, 3, "out");
  m.tokens = input[0];
  m.hidden = input[1];
  m.experts = w1[0];
  m.topk = out[1];
  m.inter = out[2];
  m.gated = w1[1] == 2 * m.inter;
  m.input_dtype = type_string(args, 0);
  m.weight_dtype = type_string(args, 1);
  m.output_dtype = type_string(args, 2);
  return m;
}

Moe cktile_down(const OpArgs& args) {
  // (input [M, k, N], w2 [E, K, N_packed], out [M, K], ...).
  const Json& dims = required(args.input_dims, "Input Dims");
  Moe m;
  const Shape input = exact(dims, 0, 3, "input");
  const Shape w2 = exact(dims, 1, 3, "w2");
  m.tokens = input[0];
  m.topk = input[1];
  m.inter = input[2];
  m.experts = w2[0];
  m.hidden = w2[1];
  m.input_dtype = type_string(args, 0);
  m.weight_dtype = type_string(args, 1);
  m.output_dtype = type_string(args, 2);
  return m;
}

Moe ck_stage1(const OpArgs& args) {
  // (input [M, K_packed], w1, w2 [E, K, N_packed], ids..., out [M, k, N] = [6]).
  const Json& dims = required(args.input_dims, "Input Dims");
  Moe m;
  const Shape input = shape_of(at(dims, 0, "Input Dims"), "input");
  const Shape w1 = shape_of(at(dims, 1, "Input Dims"), "w1");
  const Shape w2 = exact(dims, 2, 3, "w2");
  const Shape out = shape_of(at(dims, 6, "Input Dims"), "out");
  if (input.empty() || w1.size() < 2 || out.size() < 2) fail("ck_moe_stage1 shapes");
  m.tokens = input[0];
  m.experts = w2[0];
  m.hidden = w2[1];
  m.inter = w2[2] * static_cast<std::int64_t>(floor_div(m.hidden, w1.back()));
  m.topk = out[1];
  m.gated = w1[1] == 2 * m.inter;
  m.input_dtype = type_string(args, 0);
  m.weight_dtype = type_string(args, 1);
  m.output_as_input = true;
  return m;
}

Moe ck_stage2(const OpArgs& args) {
  // (inter_states [M, k, N_packed], w1, w2 [E, K, N_packed], ..., out = [6]).
  const Json& dims = required(args.input_dims, "Input Dims");
  Moe m;
  const Shape input = exact(dims, 0, 3, "inter_states");
  const Shape w1 = shape_of(at(dims, 1, "Input Dims"), "w1");
  const Shape w2 = exact(dims, 2, 3, "w2");
  m.tokens = input[0];
  m.topk = input[1];
  m.experts = w2[0];
  m.hidden = w2[1];
  const PyInt packing = w1.empty() ? 1 : floor_div(m.hidden, w1.back());
  m.inter = input[2] * static_cast<std::int64_t>(packing);
  m.input_dtype = type_string(args, 0);
  m.weight_dtype = type_string(args, 2);
  m.output_as_input = true;
  return m;
}

void emit_params(const Moe& m, FamilyOutput& out) {
  out.params.emplace_back("num_tokens", py_int(m.tokens));
  out.params.emplace_back("hidden_dim", py_int(m.hidden));
  out.params.emplace_back("inter_dim", py_int(m.inter));
  out.params.emplace_back("num_experts", py_int(m.experts));
  out.params.emplace_back("topk", py_int(m.topk));
  if (m.gated) out.params.emplace_back("gated", py_bool(*m.gated));
  out.params.emplace_back("input_dtype", py_str(m.input_dtype));
  if (m.weight_param != Moe::WeightParam::kAbsent) {
    out.params.emplace_back("weight_dtype", m.weight_param == Moe::WeightParam::kNone
                                                ? py_none()
                                                : py_str(m.weight_dtype));
  }
  if (m.output_dtype) out.params.emplace_back("output_dtype", py_str(*m.output_dtype));
}

// SGLang's Triton fused-MoE grouped GEMM (invoke_fused_moe_kernel: A, B [E, N, K], C, scales,
// topk_weights, topk_ids [tokens, k] = [8], …), launched once for gate/up (N holds both) and
// once for down: flops 2·(tokens·k)·N·K; bytes the gathered activations (tokens·k)·K, the
// active experts' weights E_active·N·K and the output (tokens·k)·N. Compute spec from the
// weights' dtype.
FamilyOutput triton_grouped_gemm(std::string_view name, const OpArgs& args, Direction direction) {
  const Json& dims = required(args.input_dims, "Input Dims");
  if (!dims.is_array() || dims.size() < 9) fail("invoke_fused_moe_kernel needs 9 Input Dims");
  const Shape b = exact(dims, 1, 3, "B");
  const Shape ids = exact(dims, 8, 2, "topk_ids");
  const Json& types = args.input_types;
  const auto type = [&](std::size_t i) -> std::optional<std::string> {
    if (!types.is_array() || types.size() <= i) return std::nullopt;
    return string_at(types, i, "Input type");
  };
  const std::optional<std::string> input = type(0), weight = type(1);
  std::optional<std::string> output = type(3);
  if (!output || output->empty()) output = input;
  const PyInt E = b[0], N = b[1], K = b[2], tokens = ids[0], k = ids[1], work = tokens * k;

  FamilyOutput out;
  const auto str_or_none = [](const std::optional<std::string>& v) {
    return v ? py_str(*v) : py_none();
  };
  add_int_params(out.params, {{"m_work", work},
                              {"num_tokens", tokens},
                              {"topk", k},
                              {"N", N},
                              {"K", K},
                              {"num_experts", E}});
  out.params.emplace_back("input_dtype", str_or_none(input));
  out.params.emplace_back("weight_dtype", str_or_none(weight));
  out.params.emplace_back("output_dtype", str_or_none(output));
  if (weight && !weight->empty()) {
    out.precision_dtype = *weight;
    out.has_precision_dtype = true;
  }
  if (direction == Direction::kBackward) {
    not_implemented(std::string("Backward pass for ").append(name).append(" is not defined."));
  }
  out.flops = I(2 * work * N * K);
  const auto bpe = [](const std::optional<std::string>& dtype, double fallback) {
    return width(dtype ? moe_table_bytes(*dtype).value_or(fallback) : fallback);
  };
  FormulaNumber active = I(0);
  if (E > 0) {
    const double e = static_cast<double>(E);
    active = F(e * (1.0 - std::pow((e - static_cast<double>(k)) / e, static_cast<double>(tokens))));
  }
  out.bytes = I(work * K) * bpe(input, 2) + active * I(N) * I(K) * bpe(weight, 1) +
              I(work * N) * bpe(output, 2);
  return out;
}

}  // namespace

FamilyOutput moe_stage_model(ModelClass model, std::string_view name, const OpArgs& args,
                             Direction direction) {
  if (model == ModelClass::kMoeTritonGroupedGemm) return triton_grouped_gemm(name, args, direction);
  Moe m;
  switch (model) {
    case ModelClass::kMoeFused1Stage:
      m = fused_1stage(args);
      break;
    case ModelClass::kMoeFusedBlockscale:
      m = fused_blockscale(args);
      break;
    case ModelClass::kMoeCktileUp:
      m = cktile_up(args);
      break;
    case ModelClass::kMoeCktileDown:
      m = cktile_down(args);
      break;
    case ModelClass::kMoeCkStage1:
      m = ck_stage1(args);
      break;
    case ModelClass::kMoeFlydslStage1:
    case ModelClass::kMoeFlydslStage2:
      m = flydsl_stage(args);
      break;
    case ModelClass::kMoeTritonUnfusedUp:
    case ModelClass::kMoeTritonUnfusedDown:
      m = triton_unfused(args);
      break;
    case ModelClass::kMoeGptqAwqUp:
    case ModelClass::kMoeGptqAwqDown:
      m = gptq_awq(args, model == ModelClass::kMoeGptqAwqDown);
      break;
    default:  // kMoeCkStage2
      m = ck_stage2(args);
      break;
  }
  FamilyOutput out;
  emit_params(m, out);
  if (model == ModelClass::kMoeFusedBlockscale &&
      (m.input_dtype == "fp8" || m.input_dtype == "bf16")) {
    out.precision = "fp8";  // TraceLens names FP8 for these spellings
  } else if (const std::string& d = m.precision_from_weight ? m.weight_dtype : m.input_dtype;
             !d.empty()) {
    out.precision_dtype = d;
    out.has_precision_dtype = true;
  }
  if (direction == Direction::kBackward) {
    not_implemented(std::string("Backward pass for ").append(name).append(" is not defined."));
  }

  const PyInt M = m.tokens, K = m.hidden, N = m.inter, k = m.topk;
  const bool fused =
      model == ModelClass::kMoeFused1Stage || model == ModelClass::kMoeFusedBlockscale;
  const bool down = model == ModelClass::kMoeCktileDown || model == ModelClass::kMoeCkStage2 ||
                    model == ModelClass::kMoeFlydslStage2 ||
                    model == ModelClass::kMoeTritonUnfusedDown ||
                    model == ModelClass::kMoeGptqAwqDown;
  const PyInt gating = m.gated.value_or(false) ? 2 : 1;
  if (fused) {
    out.flops = I(2 * M * K * N * k * gating + 2 * M * K * N * k + M * K * (2 * k - 1));
  } else if (down) {
    out.flops = I(2 * M * N * K * k);
  } else {
    out.flops = I(2 * M * K * N * k * gating);
  }

  if (m.strict_widths &&
      (!moe_table_bytes(m.input_dtype) || m.weight_param != Moe::WeightParam::kDtype ||
       !moe_table_bytes(m.weight_dtype))) {
    fail("Unknown input or weight dtype");
  }
  const FormulaNumber in_bpe = width(moe_table_bytes(m.input_dtype).value_or(m.input_default));
  const FormulaNumber w_bpe =
      width(m.weight_width.value_or(moe_table_bytes(m.weight_dtype).value_or(m.weight_default)));
  const FormulaNumber out_bpe =
      m.output_as_input
          ? in_bpe
          : width(moe_table_bytes(m.output_dtype.value_or("")).value_or(m.output_default));
  if (m.experts == 0) fail("float division by zero: no experts");
  const double e = static_cast<double>(m.experts);
  const FormulaNumber active =
      F(e * (1.0 - std::pow((e - static_cast<double>(m.topk)) / e, static_cast<double>(m.tokens))));
  if (fused) {
    out.bytes = I(M * K) * in_bpe + active * I(N) * I(K) * w_bpe * I(gating) +
                active * I(N) * I(K) * w_bpe + I(M * K) * out_bpe;
  } else if (down) {
    out.bytes = I(M * N * k) * in_bpe + active * I(N) * I(K) * w_bpe + I(M * K) * out_bpe;
  } else {
    out.bytes =
        I(M * K) * in_bpe + active * I(gating) * I(K) * I(N) * w_bpe + I(M * N * k) * out_bpe;
  }
  return out;
}

}  // namespace loupe::core::prepare::perf::detail
