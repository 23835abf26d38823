#include "conv_classification.hpp"

#include <algorithm>
#include <cctype>

#include "loupe/compute/py_literal.hpp"

namespace loupe::conv {

namespace {

std::optional<std::vector<std::int64_t>> int_shape(const compute::PyValue& v) {
  if (!v.is_sequence()) return std::nullopt;
  std::vector<std::int64_t> out;
  for (const auto& item : v.items()) {
    if (!item.is_int()) return std::nullopt;
    out.push_back(item.as_int());
  }
  return out;
}

}  // namespace

std::string classify_conv(std::string_view op_name, const std::optional<std::string>& input_dims) {
  std::string name(op_name);
  for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (name.find("transpose") != std::string::npos || name.find("deconv") != std::string::npos) {
    return "Transpose / Deconv";
  }
  if (!input_dims) return "Other";
  const auto dims = compute::parse_py_literal(*input_dims);
  if (!dims || !dims->is_sequence()) return "Other";
  const bool backward = name.find("backward") != std::string::npos;
  const size_t xi = backward ? 1 : 0;
  if (dims->items().size() < xi + 2) return "Other";
  const auto x = int_shape(dims->items()[xi]);
  const auto w = int_shape(dims->items()[xi + 1]);
  if (!x || !w || x->size() < 3 || w->size() != x->size()) return "Other";
  if ((*w)[1] == 1 && (*x)[1] > 1) return "Depthwise";
  if (x->size() == 3) return "1D";
  if (x->size() == 5) return "3D";
  if (x->size() != 4) return "Other";
  const bool pointwise = (*w)[2] == 1 && (*w)[3] == 1;
  if (pointwise) return "Pointwise 1x1";
  if (std::max((*w)[2], (*w)[3]) >= 5) return "Large kernel";
  return "Standard 2D";
}

}  // namespace loupe::conv
