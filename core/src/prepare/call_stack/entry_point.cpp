// entry_point (§3.6.4): the Python frame through which an op was dispatched, found in the
// flattened call_stack_full.
#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <string_view>

#include "loupe/core/prepare/call_stack.hpp"
#include "loupe/text.hpp"

namespace loupe::core::prepare {

namespace {

constexpr std::array<std::string_view, 3> kWrapperPrefixes = {"<built-in", "pybind11_builtins",
                                                              "nn.Module:"};

constexpr std::array<std::string_view, 11> kWrapperPaths = {"torch/_ops.py",
                                                            "torch/nn/modules/module.py",
                                                            "torch/utils/_contextlib.py",
                                                            "torch/utils/_device.py",
                                                            "torch/_tensor.py",
                                                            "torch/functional.py",
                                                            "torch/overrides.py",
                                                            "torch/_inductor/",
                                                            "torch/_functorch/",
                                                            "torch/distributed/c10d_logger.py",
                                                            "triton/backends/"};

constexpr std::array<std::string_view, 10> kWrapperFunctions = {"__torch_function__",
                                                                "_call_impl",
                                                                "_wrapped_call_impl",
                                                                "decorate_context",
                                                                "dispatch_wrapper",
                                                                "handle_torch_function",
                                                                "wrapper",
                                                                "custom_wrapper",
                                                                "wrapper_custom",
                                                                "outer_wrapper"};

constexpr std::string_view kFunctionSeparator = "): ";

using loupe::text::contains;

// frame.split("): ")[-1]: the text after the last separator (whole frame if none).
std::string_view function_part(std::string_view frame) {
  const auto at = frame.rfind(kFunctionSeparator);
  return at == std::string_view::npos ? frame : frame.substr(at + kFunctionSeparator.size());
}

// re.sub(r"_\d+$", "", name): one trailing "_<digits>" run removed.
std::string_view strip_numeric_suffix(std::string_view name) {
  std::size_t digits_start = name.size();
  while (digits_start > 0 && name[digits_start - 1] >= '0' && name[digits_start - 1] <= '9') {
    --digits_start;
  }
  if (digits_start == name.size() || digits_start == 0 || name[digits_start - 1] != '_') {
    return name;
  }
  return name.substr(0, digits_start - 1);
}

// Index of the last frame equal to `name`, or npos.
std::size_t last_index_of(std::span<const std::string> frames, std::string_view name) {
  for (std::size_t i = frames.size(); i > 0; --i) {
    if (frames[i - 1] == name) return i - 1;
  }
  return std::string_view::npos;
}

}  // namespace

bool is_wrapper_frame(std::string_view frame) {
  for (const auto prefix : kWrapperPrefixes) {
    if (frame.starts_with(prefix)) return true;
  }
  for (const auto path : kWrapperPaths) {
    if (contains(frame, path)) return true;
  }
  if (!contains(frame, kFunctionSeparator)) return false;
  const std::string_view function = function_part(frame);
  return std::find(kWrapperFunctions.begin(), kWrapperFunctions.end(), function) !=
         kWrapperFunctions.end();
}

std::string find_entry_point(std::span<const std::string> flat_stack, std::string_view op_name) {
  std::size_t op_index = last_index_of(flat_stack, op_name);
  if (op_index == std::string_view::npos) {
    const std::string_view stripped = strip_numeric_suffix(op_name);
    if (stripped != op_name) op_index = last_index_of(flat_stack, stripped);
  }
  if (op_index == std::string_view::npos) return std::string(kCallStackNotFound);

  const auto scope = op_name.rfind("::");
  const std::string local_name =
      text::ascii_lower(scope == std::string_view::npos ? op_name : op_name.substr(scope + 2));
  for (std::size_t i = op_index + 1; i < flat_stack.size(); ++i) {
    const std::string& frame = flat_stack[i];
    if (!contains(frame, ".py")) continue;
    if (contains(text::ascii_lower(function_part(frame)), local_name)) return frame;
  }
  for (std::size_t i = op_index; i > 0; --i) {
    const std::string& frame = flat_stack[i - 1];
    if (contains(frame, ".py") && !is_wrapper_frame(frame)) return frame;
  }
  return std::string(kCallStackNotFound);
}

}  // namespace loupe::core::prepare
