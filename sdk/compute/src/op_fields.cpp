#include "loupe/compute/op_fields.hpp"
#include "loupe/text.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace loupe::compute {

namespace {

using loupe::text::contains;

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

std::string rstrip(std::string text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  return text;
}

std::optional<PyValue> parse_list(std::string_view text) {
  if (text.empty() || text == "nan") return std::nullopt;
  auto value = parse_py_literal(text);
  if (!value || !value->is_sequence()) return std::nullopt;
  return value;
}

}  // namespace

std::optional<std::string> torch_dtype_precision(std::string_view dtype) {
  static const std::array<std::pair<std::string_view, std::string_view>, 11> kMap{{
      {"float", "fp32"},
      {"double", "fp64"},
      {"c10::half", "fp16"},
      {"c10::bfloat16", "bf16"},
      {"c10::float8_e4m3fnuz", "fp8"},
      {"c10::float8_e4m3fn", "fp8"},
      {"unsigned char", "fp8"},
      {"fp8", "fp8"},
      {"fp4", "fp4"},
      {"mxfp4", "fp4"},
      {"c10::float4_e2m1fn_x2", "fp4"},
  }};
  const std::string key = text::ascii_lower(dtype);
  for (const auto& [from, to] : kMap) {
    if (key == from) return std::string(to);
  }
  return std::nullopt;
}

std::optional<std::string> format_args(const std::optional<std::string>& input_dims,
                                       const std::optional<std::string>& input_types,
                                       bool drop_non_tensor_slots) {
  if (!input_dims || !input_types) return std::nullopt;
  const auto dims = parse_py_literal(*input_dims);
  const auto types = parse_py_literal(*input_types);
  if (!dims || !types || !dims->is_sequence() || !types->is_sequence()) return std::nullopt;
  const size_t n = std::min(dims->items().size(), types->items().size());
  std::string out;
  for (size_t i = 0; i < n; ++i) {
    const PyValue& dim = dims->items()[i];
    const PyValue& dtype = types->items()[i];
    const std::vector<PyValue> empty;
    const std::vector<PyValue>& shape = dim.is_sequence() ? dim.items() : empty;
    std::string kind;
    bool tensor_dtype = false;
    if (dtype.truthy()) {
      if (dtype.is_string()) {
        const auto precision = torch_dtype_precision(dtype.as_string());
        tensor_dtype = precision.has_value();
        kind = precision.value_or(dtype.as_string());
      } else {
        kind = dtype.str();
      }
    }
    if (shape.empty() && (kind.empty() || kind == "Scalar")) continue;
    if (shape.empty() && drop_non_tensor_slots && !tensor_dtype) continue;
    std::string part = "(";
    for (size_t k = 0; k < shape.size(); ++k) {
      if (k > 0) part += ",";
      part += shape[k].str();
    }
    if (shape.size() == 1) part += ",";
    part += ") " + kind;
    if (!out.empty()) out += "<br>";
    out += rstrip(std::move(part));
  }
  if (out.empty()) return std::nullopt;
  return out;
}

std::optional<std::vector<KernelEntry>> parse_kernel_details(std::string_view text) {
  const auto list = parse_list(text);
  if (!list) return std::nullopt;
  std::vector<KernelEntry> out;
  for (const auto& item : list->items()) {
    if (!item.is_dict()) return std::nullopt;
    KernelEntry entry;
    if (const auto* name = item.get("name"); name != nullptr && name->is_string()) {
      entry.name = name->as_string();
    }
    if (const auto* total = item.get("total_duration_us"); total != nullptr) {
      entry.total_duration_us = total->number().value_or(0.0);
    }
    if (const auto* count = item.get("count"); count != nullptr) {
      entry.count = count->number().value_or(0.0);
    }
    out.push_back(std::move(entry));
  }
  return out;
}

namespace {

std::optional<std::string> library_from_op_name(std::string_view op_name) {
  const std::string name = text::ascii_lower(op_name);
  static const std::array<std::pair<std::string_view, std::string_view>, 5> kRules{{
      {"aiter::", "AITER"},
      {"rocm_aiter", "AITER"},
      {"fbgemm", "FBGEMM"},
      {"miopen", "MIOpen"},
      {"triton", "Triton"},
  }};
  for (const auto& [pattern, library] : kRules) {
    if (contains(name, pattern)) return std::string(library);
  }
  return std::nullopt;
}

const std::vector<LibraryRule>& tracelens_kernel_rules() {
  static const std::vector<LibraryRule> kRules{
      {"aiter", "AITER", false},
      {"ck_tile::", "CK", false},
      {"ck_tile6kentry", "CK", false},
      {"FmhaFwd", "CK", false},
      {"FmhaBwd", "CK", false},
      {"Cijk_", "Tensile", false},
      {"wvSplitK", "rocBLAS", false},
      {"splitKreduce", "rocBLAS", false},
      {"rocprim::", "rocPRIM", false},
      {"triton_", "Triton", false},
      {"void at::native::", "PyTorch Native", true},
  };
  return kRules;
}

}  // namespace

std::optional<std::string> classify_library_tracelens(std::string_view op_name,
                                                      std::string_view kernel_details) {
  if (auto by_name = library_from_op_name(op_name)) return by_name;
  for (const auto& rule : tracelens_kernel_rules()) {
    if (contains(kernel_details, rule.pattern)) return rule.library;
  }
  return std::nullopt;
}

const std::vector<LibraryRule>& generic_library_rules() {
  static const std::vector<LibraryRule> kRules = [] {
    std::vector<LibraryRule> rules{
        {"_ZN2ck", "CK", false},       {"ck::tensor_operation", "CK", false},
        {"ck_tile", "CK", false},      {"cudnn", "cuDNN", false},
        {"cutlass", "CUTLASS", false}, {"Cijk_", "Tensile", false},
    };
    for (const auto& rule : tracelens_kernel_rules()) rules.push_back(rule);
    return rules;
  }();
  return kRules;
}

std::optional<std::string> classify_library(std::string_view op_name,
                                            std::string_view kernel_details,
                                            const std::vector<LibraryRule>& category_rules) {
  if (auto by_name = library_from_op_name(op_name)) return by_name;
  const auto kernels = parse_kernel_details(kernel_details);
  if (!kernels) return classify_library_tracelens(op_name, kernel_details);
  const LibraryRule* best_main = nullptr;
  double best_main_us = -1.0;
  const LibraryRule* best_helper = nullptr;
  double best_helper_us = -1.0;
  for (const auto& kernel : *kernels) {
    const LibraryRule* match = nullptr;
    for (const auto* rules : {&category_rules, &generic_library_rules()}) {
      for (const auto& rule : *rules) {
        if (contains(kernel.name, rule.pattern)) {
          match = &rule;
          break;
        }
      }
      if (match != nullptr) break;
    }
    if (match == nullptr) continue;
    auto& best = match->helper ? best_helper : best_main;
    auto& best_us = match->helper ? best_helper_us : best_main_us;
    if (kernel.total_duration_us > best_us) {
      best = match;
      best_us = kernel.total_duration_us;
    }
  }
  if (best_main != nullptr) return best_main->library;
  if (best_helper != nullptr) return best_helper->library;
  return std::nullopt;
}

std::string truncate_kernel_name(const std::string& name) {
  // Python counts code points, not bytes.
  size_t code_points = 0;
  for (size_t i = 0; i < name.size(); ++i) {
    if ((static_cast<unsigned char>(name[i]) & 0xC0) != 0x80) {
      if (code_points == 75) return name.substr(0, i) + "...";
      ++code_points;
    }
  }
  return name;
}

std::pair<std::string, std::string> extract_kernel_names(std::string_view call_stack_full) {
  const auto list = parse_list(call_stack_full);
  if (!list || list->items().empty()) return {};
  const auto& items = list->items();
  const bool has_sublists =
      std::any_of(items.begin(), items.end(), [](const PyValue& v) { return v.is_sequence(); });
  std::vector<std::string> kernels;
  if (has_sublists) {
    for (const auto& item : items) {
      if (item.is_sequence() && !item.items().empty() && item.items().back().is_string()) {
        kernels.push_back(item.items().back().as_string());
      }
    }
  } else if (items.back().is_string() && !items.back().as_string().empty()) {
    kernels.push_back(items.back().as_string());
  }
  if (kernels.empty()) return {};
  if (kernels.size() == 1) return {kernels[0], truncate_kernel_name(kernels[0])};
  std::string full;
  std::string trunc;
  for (size_t i = 0; i < kernels.size(); ++i) {
    const std::string prefix =
        (i > 0 ? "<br>" : "") + std::string("Kernel ") + std::to_string(i + 1) + ": ";
    full += prefix + kernels[i];
    trunc += prefix + truncate_kernel_name(kernels[i]);
  }
  return {full, trunc};
}

std::vector<std::string> extract_module_chain(std::string_view call_stack_full) {
  std::vector<std::string> out;
  const auto list = parse_list(call_stack_full);
  if (!list) return out;
  static constexpr std::string_view kPrefix = "nn.Module: ";
  for (const auto& item : list->items()) {
    if (item.is_string() && starts_with(item.as_string(), kPrefix)) {
      out.push_back(item.as_string().substr(kPrefix.size()));
    }
  }
  return out;
}

std::vector<std::string> extract_call_chain(std::string_view call_stack_full) {
  static constexpr std::array<std::string_view, 11> kNoise{
      "torch/nn/modules/module.py", "torch/utils/_device.py",
      "torch/overrides.py",         "torch/_ops.py",
      "multiprocessing/spawn.py",   "torch/_dynamo/eval_frame.py",
      "torch/_functorch/",          "torch/autograd/function.py",
      "torch/_inductor/",           "torch/cuda/graphs.py",
      "torch/utils/_contextlib.py"};
  std::vector<std::string> out;
  const auto list = parse_list(call_stack_full);
  if (!list) return out;
  for (const auto& item : list->items()) {
    if (!item.is_string()) continue;
    const std::string& frame = item.as_string();
    const bool noise = std::any_of(kNoise.begin(), kNoise.end(),
                                   [&](std::string_view n) { return contains(frame, n); });
    if (noise) continue;
    if (starts_with(frame, "nn.Module:") || contains(frame, ".py") || contains(frame, "::")) {
      out.push_back(frame);
    }
  }
  return out;
}

std::optional<std::string> match_fusion_candidate(
    std::string_view kernel_details, const std::vector<std::pair<std::string, std::string>>& map) {
  static constexpr std::string_view kKey = "'name':";
  size_t pos = 0;
  while (true) {
    const size_t hit = kernel_details.find(kKey, pos);
    if (hit == std::string_view::npos) break;
    size_t q = hit + kKey.size();
    while (q < kernel_details.size() &&
           std::isspace(static_cast<unsigned char>(kernel_details[q]))) {
      ++q;
    }
    const size_t close = q < kernel_details.size() && kernel_details[q] == '\''
                             ? kernel_details.find('\'', q + 1)
                             : std::string_view::npos;
    if (close == std::string_view::npos || close == q + 1) {
      pos = hit + 1;
      continue;
    }
    const std::string_view name = kernel_details.substr(q + 1, close - q - 1);
    pos = close + 1;
    for (const auto& [key, candidate] : map) {
      if (key == name) return candidate;
    }
    for (const auto& [key, candidate] : map) {
      if (starts_with(key, name) || starts_with(name, key)) return candidate;
    }
  }
  return std::nullopt;
}

}  // namespace loupe::compute
