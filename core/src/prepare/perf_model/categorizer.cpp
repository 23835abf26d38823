// §3.9.1 op categorization: registry name, then name prefixes, then the first kernel's name.
#include <array>
#include <string>
#include <utility>

#include "loupe/core/prepare/perf_model.hpp"

namespace loupe::core::prepare::perf {

std::string op_category(std::string_view op_name, std::string_view first_kernel_name) {
  // The category-only table is applied over the model categories (it wins on overlap).
  if (const auto category = category_only(op_name)) return std::string(*category);
  if (const ModelInfo* info = find_model(op_name)) return std::string(info->category);
  if (op_name.starts_with("triton")) return "triton";
  if (op_name.starts_with("record_param_comms")) return "record_param_comms";
  if (first_kernel_name.starts_with("void at::native")) {
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 3> kRules{{
        {"elementwise", "elementwise"},
        {"reduce", "reduce"},
        {"multi_tensor_apply", "multi_tensor_apply"},
    }};
    for (const auto& [needle, category] : kRules) {
      if (first_kernel_name.find(needle) != std::string_view::npos) {
        return std::string(category);
      }
    }
  }
  return "other";
}

}  // namespace loupe::core::prepare::perf
