// Per-operation fields that every compute category derives the same way from its ops CSV:
// args rendering, library detection, kernel names, call/module chains, launcher path and the
// kernel-fusion match. Pure functions over cell text; no category-specific knowledge.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "loupe/compute/py_literal.hpp"

namespace loupe::compute {

// TraceLens's torch_dtype_map: "c10::BFloat16" -> "bf16", "float" -> "fp32", ...; nullopt if
// unknown. Case-insensitive.
std::optional<std::string> torch_dtype_precision(std::string_view dtype);

// The args cell: "(8,64,56,56) bf16<br>(64,64,3,3) bf16<br>...". nullopt when either input is
// missing or unparseable or nothing is left. drop_non_tensor_slots: default-mode rule that also
// drops "()" slots whose kind is not a tensor dtype (ScalarList, TensorList, None, ...).
std::optional<std::string> format_args(const std::optional<std::string>& input_dims,
                                       const std::optional<std::string>& input_types,
                                       bool drop_non_tensor_slots);

// One kernel entry of kernel_details_summary.
struct KernelEntry {
  std::string name;
  double total_duration_us = 0.0;
  double count = 0.0;
};
// Parses kernel_details_summary; nullopt when it is not a list of dicts.
std::optional<std::vector<KernelEntry>> parse_kernel_details(std::string_view text);

// A library rule: a substring of a kernel name (case-sensitive) that names the library.
// helper = layout/elementwise helper kernels: used only when no main kernel matches.
struct LibraryRule {
  std::string pattern;
  std::string library;
  bool helper = false;
};

// TraceLens's classify_kernel_library: op-name rules, then kernel-string rules in rule order
// against the whole kernel_details_summary string.
std::optional<std::string> classify_library_tracelens(std::string_view op_name,
                                                      std::string_view kernel_details);

// The generic DNN/BLAS library kernel rules of the default mode (CK, cuDNN, Tensile, ...),
// tried after the category's own rules.
const std::vector<LibraryRule>& generic_library_rules();

// Default-mode detection: op-name rules first; then each kernel is matched against
// category_rules followed by the generic rules; the main kernel with the largest total time
// wins, helper kernels only when no main kernel matched. Falls back to the TraceLens rules when
// the kernel details cannot be parsed.
std::optional<std::string> classify_library(std::string_view op_name,
                                            std::string_view kernel_details,
                                            const std::vector<LibraryRule>& category_rules);

// Kernel names from call_stack_full: (full, truncated to 75 chars + "..."), "Kernel i: " joined
// with <br> when several.
std::pair<std::string, std::string> extract_kernel_names(std::string_view call_stack_full);
std::string truncate_kernel_name(const std::string& name);

// Top-level frames of call_stack_full ("nn.Module: X" -> X) and the filtered call chain.
std::vector<std::string> extract_module_chain(std::string_view call_stack_full);
std::vector<std::string> extract_call_chain(std::string_view call_stack_full);

// TraceLens's fusion match: names found with 'name':\s*'...' in the kernel details, exact key,
// else the first map entry where either string is a prefix of the other.
std::optional<std::string> match_fusion_candidate(
    std::string_view kernel_details, const std::vector<std::pair<std::string, std::string>>& map);

}  // namespace loupe::compute
