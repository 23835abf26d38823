#include "predicates.hpp"

#include <array>
#include <string_view>

namespace loupe::fusion {

bool is_matrix(const EnrichedKernel& k) {
  static constexpr std::array<std::string_view, 6> kMatrixSpecs = {
      "matrix_fp16", "matrix_bf16", "matrix_fp32", "matrix_fp64", "matrix_fp8", "matrix_int8"};
  if (k.compute_spec && !k.compute_spec->empty()) {
    for (auto spec : kMatrixSpecs) {
      if (*k.compute_spec == spec) return true;
    }
  }
  std::string upper(k.type);
  for (auto& c : upper) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return contains(upper, "GEMM") || contains(upper, "CONV");
}

bool is_norm(const EnrichedKernel& k) {
  static constexpr std::array<std::string_view, 5> kNormTypes = {
      "LayerNorm", "BatchNorm", "GroupNorm", "InstanceNorm", "Norm"};
  static constexpr std::array<std::string_view, 6> kNormNames = {
      "batchnorm", "layernorm", "groupnorm", "instancenorm", "miopenbatchnorm", "rmsnorm"};
  for (auto t : kNormTypes) {
    if (k.type == t) return true;
  }
  const std::string lower = text::ascii_lower(k.name);
  for (auto n : kNormNames) {
    if (contains(lower, n)) return true;
  }
  return false;
}

}  // namespace loupe::fusion
