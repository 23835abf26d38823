// matmul_ogs MoE matmuls (moe_matmul_ogs.hpp).
#include "loupe/core/prepare/moe_matmul_ogs.hpp"

#include <charconv>
#include <cmath>
#include <vector>

#include "loupe/text.hpp"
#include "model_support.hpp"

namespace loupe::core::prepare::perf {
namespace {

using detail::py_bool;
using detail::py_float;
using detail::py_int;
using detail::py_str;

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t at = s.find(sep, start);
    out.push_back(
        s.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
    if (at == std::string_view::npos) return out;
    start = at + 1;
  }
}

std::optional<std::int64_t> number(std::string_view s) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || v <= 0) return std::nullopt;
  return v;
}

// The arch files' precision name of a dtype token ("" when unknown).
std::string moe_precision(std::string_view dtype) {
  const std::string d = text::ascii_lower(dtype);
  if (d == "bf16" || d == "bfloat16") return "bf16";
  if (d == "fp16" || d == "f16" || d == "float16") return "fp16";
  if (d == "fp32" || d == "f32" || d == "float32") return "fp32";
  if (d.starts_with("fp8") || d.starts_with("float8")) return "fp8";
  return {};
}

}  // namespace

bool is_matmul_ogs_kernel(std::string_view kernel_name) {
  return kernel_name.find("matmul_ogs") != std::string_view::npos;
}

std::optional<MatmulOgsKernel> parse_matmul_ogs_kernel(std::string_view kernel_name) {
  constexpr std::string_view kMarker = "_matmul_ogs_";
  const std::size_t at = kernel_name.find(kMarker);
  if (at == std::string_view::npos) return std::nullopt;
  const auto parts = split(kernel_name.substr(at + kMarker.size()), '_');
  if (parts.size() < 3 || parts.size() > 4) return std::nullopt;
  MatmulOgsKernel k;
  k.layout = std::string(parts[0]);
  if (k.layout.empty()) return std::nullopt;
  // Split on 'x', the separator, rejoining the microscaling formats it also spells ("mxfp4").
  std::vector<std::string> dtypes;
  const auto pieces = split(parts[1], 'x');
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    if (pieces[i] == "m" && i + 1 < pieces.size()) {
      dtypes.push_back("mx" + std::string(pieces[++i]));
    } else {
      dtypes.emplace_back(pieces[i]);
    }
  }
  if (dtypes.size() != 3) return std::nullopt;
  for (const auto& d : dtypes) {
    if (d.empty()) return std::nullopt;
  }
  k.out_dtype = dtypes[0];
  k.act_dtype = dtypes[1];
  k.weight_dtype = dtypes[2];
  const auto tile = split(parts[2], 'x');
  if (tile.size() != 4) return std::nullopt;
  const auto bm = number(tile[0]);
  const auto bn = number(tile[1]);
  const auto bk = number(tile[2]);
  const auto sk = number(tile[3]);
  if (!bm || !bn || !bk || !sk) return std::nullopt;
  k.block_m = *bm;
  k.block_n = *bn;
  k.block_k = *bk;
  k.split_k = *sk;
  if (parts.size() == 4) {
    if (parts[3].empty()) return std::nullopt;
    k.fused_activation = std::string(parts[3]);
  }
  return k;
}

std::optional<double> moe_dtype_bytes(std::string_view dtype) {
  const std::string d = text::ascii_lower(dtype);
  if (d == "mxfp4") return 0.5 + 1.0 / 32.0;  // + the E8M0 scale of each block of 32
  if (d == "fp4" || d == "e2m1") return 0.5;
  if (d.starts_with("fp8") || d.starts_with("float8") || d.starts_with("e4m3") ||
      d.starts_with("e5m2") || d == "int8" || d == "u8" || d == "i8") {
    return 1.0;
  }
  if (d == "bf16" || d == "fp16" || d == "f16" || d == "bfloat16" || d == "float16") return 2.0;
  if (d == "fp32" || d == "f32" || d == "float32") return 4.0;
  return std::nullopt;
}

std::optional<std::int64_t> expert_intermediate_size(std::span<const std::int64_t> weight_dims,
                                                     bool packed, bool gated,
                                                     const MoeLayerShape& layer) {
  if (weight_dims.size() != 3 || weight_dims[0] != layer.experts) return std::nullopt;
  const std::int64_t k = weight_dims[1] * (packed ? 2 : 1);
  const std::int64_t n = weight_dims[2];
  if (k <= 0 || n <= 0) return std::nullopt;
  if (gated) {
    if (k != layer.hidden || n % 2 != 0) return std::nullopt;
    return n / 2;
  }
  if (n != layer.hidden) return std::nullopt;
  return k;
}

ModelResult matmul_ogs_model(const MatmulOgsKernel& kernel,
                             const std::optional<MoeLayerShape>& shape,
                             std::string_view missing_reason) {
  ModelResult r;
  const bool up = kernel.gated();
  r.params.emplace_back("moe_stage", py_str(up ? "up" : "down"));
  r.params.emplace_back("gated", py_bool(up));
  r.params.emplace_back("act_dtype", py_str(kernel.act_dtype));
  r.params.emplace_back("weight_dtype", py_str(kernel.weight_dtype));
  r.params.emplace_back("out_dtype", py_str(kernel.out_dtype));
  r.params.emplace_back(
      "tile", py_str(std::to_string(kernel.block_m) + "x" + std::to_string(kernel.block_n) + "x" +
                     std::to_string(kernel.block_k)));
  r.params.emplace_back("split_k", py_int(kernel.split_k));
  if (!shape) {
    r.params.emplace_back("evidence", py_str("heuristic"));
    r.params.emplace_back("missing", py_str(std::string(missing_reason)));
    r.error = ModelError::kFailed;
    r.message = std::string(missing_reason);
    return r;
  }
  const auto in_bpe = moe_dtype_bytes(kernel.act_dtype);
  const auto w_bpe = moe_dtype_bytes(kernel.weight_dtype);
  const auto out_bpe = moe_dtype_bytes(kernel.out_dtype);
  const auto t = static_cast<double>(shape->tokens);
  const auto h = static_cast<double>(shape->hidden);
  // From the expert weights when the trace shows them, else GPT-OSS's configuration (I = H).
  const std::int64_t inter_dim = shape->intermediate.value_or(shape->hidden);
  const auto inter = static_cast<double>(inter_dim);
  const auto e = static_cast<double>(shape->experts);
  const auto k = static_cast<double>(shape->topk);
  r.params.emplace_back("evidence", py_str("modeled"));
  r.params.emplace_back("num_tokens", py_int(shape->tokens));
  r.params.emplace_back("hidden_dim", py_int(shape->hidden));
  r.params.emplace_back("inter_dim", py_int(inter_dim));
  r.params.emplace_back(
      "inter_dim_source",
      py_str(shape->intermediate ? "expert weights" : "assumed equal to hidden_dim"));
  r.params.emplace_back("num_experts", py_int(shape->experts));
  r.params.emplace_back("topk", py_int(shape->topk));
  const double gating = up ? 2.0 : 1.0;
  const PyInt flops = static_cast<PyInt>(2) * shape->tokens * shape->hidden * inter_dim *
                      shape->topk * (up ? 2 : 1);
  r.flops = FormulaNumber::from_int(flops);
  // Experts a uniform router activates for T tokens choosing k of E each.
  const double active = e * (1.0 - std::pow((e - k) / e, t));
  r.params.emplace_back("active_experts", py_float(active));
  if (in_bpe && w_bpe && out_bpe) {
    const double bytes =
        up ? t * h * *in_bpe + active * gating * h * inter * *w_bpe + t * inter * k * *out_bpe
           : t * inter * k * *in_bpe + active * inter * h * *w_bpe + t * h * *out_bpe;
    r.bytes = FormulaNumber::from_float(bytes);
  }
  const std::string precision = moe_precision(kernel.act_dtype);
  if (!precision.empty()) r.compute_spec = "matrix_" + precision;
  return r;
}

}  // namespace loupe::core::prepare::perf
