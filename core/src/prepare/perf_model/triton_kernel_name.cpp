// Inductor kernel names -> fused ATen ops, and the per-element flop charge of each op.
#include "triton_kernel_name.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>

namespace loupe::core::prepare::perf::detail {
namespace {

// Op names (ATen and prims, without namespace) that inductor writes into fused kernel names.
// Longer names must win over their prefixes ("bitwise_and" over a skipped "bitwise"), so the
// list is only used through longest-first matching.
constexpr std::array kOpNames = std::to_array<std::string_view>({
    // pointwise arithmetic and math
    "abs",
    "acos",
    "acosh",
    "add",
    "addcdiv",
    "addcmul",
    "asin",
    "asinh",
    "atan",
    "atan2",
    "atanh",
    "ceil",
    "clamp",
    "clamp_max",
    "clamp_min",
    "copysign",
    "cos",
    "cosh",
    "div",
    "erf",
    "erfc",
    "erfinv",
    "exp",
    "exp2",
    "expm1",
    "floor",
    "floor_divide",
    "fmod",
    "frac",
    "hypot",
    "lerp",
    "lgamma",
    "log",
    "log10",
    "log1p",
    "log2",
    "logit",
    "maximum",
    "minimum",
    "mul",
    "nan_to_num",
    "neg",
    "nextafter",
    "pow",
    "reciprocal",
    "remainder",
    "round",
    "rsqrt",
    "rsub",
    "sign",
    "signbit",
    "sin",
    "sinh",
    "sqrt",
    "square",
    "sub",
    "tan",
    "tanh",
    "trunc",
    "xlogy",
    // activations and their gradients
    "celu",
    "elu",
    "elu_backward",
    "gelu",
    "gelu_backward",
    "glu",
    "hardsigmoid",
    "hardsigmoid_backward",
    "hardswish",
    "hardswish_backward",
    "hardtanh",
    "hardtanh_backward",
    "leaky_relu",
    "leaky_relu_backward",
    "log_sigmoid_backward",
    "log_sigmoid_forward",
    "mish",
    "mish_backward",
    "relu",
    "relu6",
    "sigmoid",
    "sigmoid_backward",
    "silu",
    "silu_backward",
    "softplus",
    "softplus_backward",
    "tanh_backward",
    "threshold",
    "threshold_backward",
    // comparisons, logic, bit operations
    "bitwise_and",
    "bitwise_left_shift",
    "bitwise_not",
    "bitwise_or",
    "bitwise_right_shift",
    "bitwise_xor",
    "eq",
    "ge",
    "gt",
    "isinf",
    "isnan",
    "isneginf",
    "isposinf",
    "le",
    "logical_and",
    "logical_not",
    "logical_or",
    "logical_xor",
    "lt",
    "ne",
    "where",
    // reductions, scans, normalization
    "all",
    "amax",
    "amin",
    "any",
    "argmax",
    "argmin",
    "cummax",
    "cummin",
    "cumprod",
    "cumsum",
    "logsumexp",
    "max",
    "mean",
    "min",
    "native_batch_norm",
    "native_batch_norm_backward",
    "native_group_norm",
    "native_group_norm_backward",
    "native_layer_norm",
    "native_layer_norm_backward",
    "norm",
    "prod",
    "std",
    "sum",
    "var",
    "var_mean",
    "_softmax",
    "_softmax_backward_data",
    "_log_softmax",
    "_log_softmax_backward_data",
    "_fused_rms_norm",
    "_fused_rms_norm_backward",
    "prepare_softmax_online",
    "nll_loss_forward",
    "nll_loss_backward",
    "mse_loss",
    "mse_loss_backward",
    // creation, copies, dtype conversion
    "_to_copy",
    "arange",
    "bernoulli",
    "clone",
    "convert_element_type",
    "copy",
    "copy_",
    "empty",
    "fill",
    "fill_",
    "full",
    "full_like",
    "iota",
    "lift_fresh",
    "lift_fresh_copy",
    "native_dropout",
    "native_dropout_backward",
    "new_zeros",
    "ones",
    "ones_like",
    "rand",
    "rand_like",
    "randint",
    "randn",
    "scalar_tensor",
    "zeros",
    "zeros_like",
    // views and layout
    "_unsafe_view",
    "alias",
    "as_strided",
    "cat",
    "constant_pad_nd",
    "expand",
    "flip",
    "permute",
    "reflection_pad2d",
    "repeat",
    "reshape",
    "roll",
    "select",
    "select_scatter",
    "slice",
    "slice_scatter",
    "split",
    "split_with_sizes",
    "squeeze",
    "stack",
    "t",
    "to",
    "transpose",
    "unbind",
    "unsqueeze",
    "view",
    "view_as_complex",
    "view_as_real",
    // indexing
    "_unsafe_index",
    "_unsafe_index_put",
    "embedding",
    "embedding_dense_backward",
    "gather",
    "index",
    "index_add",
    "index_put",
    "index_select",
    "masked_fill",
    "scatter",
    "scatter_add",
    "scatter_reduce",
    "sort",
    "topk",
    // pooling, resampling, matmul-adjacent
    "_adaptive_avg_pool2d",
    "_adaptive_avg_pool2d_backward",
    "avg_pool2d",
    "avg_pool2d_backward",
    "max_pool2d_with_indices",
    "max_pool2d_with_indices_backward",
    "upsample_bilinear2d",
    "upsample_nearest2d",
    "addmm",
    "bmm",
    "convolution",
    "mm",
});

// Per-element flop charge of the ops the model prices; the rest cost nothing.
constexpr std::array kFlopsPerElement = std::to_array<std::pair<std::string_view, int>>({
    {"aten.add", 1},  {"aten.sub", 1},   {"aten.mul", 1},  {"aten.div", 1},  {"aten.pow", 2},
    {"aten.sqrt", 2}, {"aten.rsqrt", 2}, {"aten.exp", 4},  {"aten.log", 4},  {"aten.sigmoid", 4},
    {"aten.tanh", 4}, {"aten.relu", 1},  {"aten.silu", 4}, {"aten.gelu", 8}, {"aten.mean", 1},
    {"aten.sum", 1},  {"aten.var", 2},   {"aten.abs", 1},  {"aten.neg", 1},  {"aten.reciprocal", 2},
    {"aten.ne", 1},   {"aten.eq", 1},    {"aten.lt", 1},   {"aten.gt", 1},
});

std::vector<std::string_view> longest_first() {
  std::vector<std::string_view> names(kOpNames.begin(), kOpNames.end());
  std::stable_sort(names.begin(), names.end(),
                   [](std::string_view a, std::string_view b) { return a.size() > b.size(); });
  return names;
}

// `<ops>` of `triton_{poi,red,per}_fused_<ops>_<digits>`, or empty.
std::string_view fused_part(std::string_view name) {
  std::string_view rest;
  for (const std::string_view prefix :
       {"triton_poi_fused_", "triton_red_fused_", "triton_per_fused_"}) {
    if (name.starts_with(prefix)) rest = name.substr(prefix.size());
  }
  const auto underscore = rest.rfind('_');
  if (underscore == std::string_view::npos || underscore == 0) return {};
  const std::string_view digits = rest.substr(underscore + 1);
  if (digits.empty() || !std::all_of(digits.begin(), digits.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) != 0;
      })) {
    return {};
  }
  return rest.substr(0, underscore);
}

}  // namespace

std::vector<std::string> inductor_fused_ops(std::string_view kernel_name) {
  static const std::vector<std::string_view> names = longest_first();
  std::vector<std::string> ops;
  std::string_view remaining = fused_part(kernel_name);
  while (!remaining.empty()) {
    const auto known = std::find_if(names.begin(), names.end(), [&](std::string_view op) {
      return remaining.starts_with(op) &&
             (remaining.size() == op.size() || remaining[op.size()] == '_');
    });
    if (known != names.end()) {
      ops.push_back(std::string("aten.").append(*known));
      remaining.remove_prefix(known->size());
      // Every separating underscore goes, including the leading one of a next "_op".
      while (remaining.starts_with('_')) remaining.remove_prefix(1);
      continue;
    }
    const auto next = remaining.find('_');
    remaining = next == std::string_view::npos ? std::string_view() : remaining.substr(next + 1);
  }
  return ops;
}

int inductor_flops_per_element(std::string_view aten_op) {
  for (const auto& [op, flops] : kFlopsPerElement) {
    if (op == aten_op) return flops;
  }
  return 0;
}

}  // namespace loupe::core::prepare::perf::detail
