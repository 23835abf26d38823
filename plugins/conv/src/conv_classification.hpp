// Classifies one convolution operation from its name and Input Dims (findings prose only).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace loupe::conv {

// Labels in the order findings list them.
inline const std::vector<std::string>& conv_type_order() {
  static const std::vector<std::string> kOrder{
      "Standard 2D", "Pointwise 1x1",      "Large kernel", "Depthwise", "1D",
      "3D",          "Transpose / Deconv", "Other"};
  return kOrder;
}

// "Standard 2D", "Pointwise 1x1", "Large kernel", "Depthwise", "1D", "3D",
// "Transpose / Deconv" or "Other".
std::string classify_conv(std::string_view op_name, const std::optional<std::string>& input_dims);

}  // namespace loupe::conv
