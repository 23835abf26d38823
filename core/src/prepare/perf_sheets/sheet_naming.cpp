#include "sheet_naming.hpp"

#include <algorithm>
#include <array>

namespace loupe::core::prepare::sheets {
namespace {

template <std::size_t N>
bool contains(const std::array<std::string_view, N>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

bool is_single_table_family(std::string_view family) {
  static constexpr std::array<std::string_view, 4> kSingle = {"GEMM", "UnaryElementwise",
                                                              "BinaryElementwise", "Normalization"};
  return contains(kSingle, family);
}

bool moves_to_backward_table(std::string_view op_name) {
  static constexpr std::array<std::string_view, 4> kMoved = {
      "aten::convolution_backward", "ConvBias_Backward", "ConvBiasReLU_Backward",
      "flash_attn::_flash_attn_varlen_backward"};
  return contains(kMoved, op_name);
}

bool dropped_from_backward_table(std::string_view op_name) {
  static constexpr std::array<std::string_view, 5> kDropped = {
      "aten::convolution", "aten::miopen_convolution", "aten::cudnn_convolution", "ConvBias_",
      "ConvBiasReLU_"};
  return contains(kDropped, op_name);
}

bool excluded_from_backward(std::string_view op_name) {
  return op_name == "vllm::unified_attention_with_output";
}

std::string sheet_file_name(std::string_view family, std::string_view suffix) {
  std::string name(family);
  name.append(suffix).append(".csv");
  return name;
}

}  // namespace loupe::core::prepare::sheets
