#include "sdpa_detection.hpp"
#include "loupe/text.hpp"

#include <array>
#include <cctype>
#include <string>

namespace loupe::sdpa {

namespace {

template <size_t N>
bool contains_any(const std::string& text, const std::array<std::string_view, N>& needles) {
  for (const auto n : needles) {
    if (text.find(n) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

bool is_flash_attention(std::string_view op_name) {
  static constexpr std::array<std::string_view, 4> kMarkers{"flash", "fmha", "flash_attention",
                                                            "flashattn"};
  return contains_any(text::ascii_lower(op_name), kMarkers);
}

bool is_paged_attention(std::string_view op_name, std::string_view kernel_details) {
  static constexpr std::array<std::string_view, 3> kNameMarkers{"unified_attention",
                                                                "paged_attention", "vllm"};
  static constexpr std::array<std::string_view, 2> kKernelMarkers{"kernel_paged_attention",
                                                                  "paged_attention_2d"};
  return contains_any(text::ascii_lower(op_name), kNameMarkers) ||
         contains_any(text::ascii_lower(kernel_details), kKernelMarkers);
}

AttentionType attention_type(std::string_view op_name, std::string_view kernel_details) {
  if (is_paged_attention(op_name, kernel_details)) return AttentionType::Paged;
  if (is_flash_attention(op_name)) return AttentionType::Flash;
  return AttentionType::Standard;
}

const char* attention_type_name(AttentionType type) {
  switch (type) {
    case AttentionType::Paged:
      return "paged";
    case AttentionType::Flash:
      return "flash";
    case AttentionType::Standard:
      break;
  }
  return "standard";
}

}  // namespace loupe::sdpa
