#include "gemm_category_specific.hpp"

#include <array>
#include <cctype>
#include <cmath>
#include <string>

#include "loupe/compute/efficiency.hpp"

namespace loupe::gemm {

bool is_quantized_gemm(std::string_view op_name) {
  static constexpr std::array<std::string_view, 7> kMarkers{"w8a8", "int8", "fp8",  "w4a16",
                                                            "w4a4", "fp4",  "mxfp4"};
  std::string name(op_name);
  for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const auto marker : kMarkers) {
    if (name.find(marker) != std::string::npos) return true;
  }
  return false;
}

Json classify_gemm(const std::string& op_name) {
  const bool quantized = is_quantized_gemm(op_name);
  Json out = Json::object();
  out["is_quantized"] = quantized;
  out["gemm_type"] = quantized ? "quantized" : "regular";
  return out;
}

Json gemm_category_specific(const compute::CategoryInputs& inputs) {
  std::int64_t quantized = 0;
  std::int64_t missing_model = 0;
  const bool has_tflops = inputs.has_column("TFLOPS/s_mean");
  for (size_t r = 0; r < inputs.rows(); ++r) {
    // TraceLens applies str() to the name, so an empty cell is the text "nan".
    if (is_quantized_gemm(inputs.text(r, "name").value_or("nan"))) ++quantized;
    if (has_tflops && std::isnan(inputs.number(r, "TFLOPS/s_mean"))) ++missing_model;
  }
  Json block = Json::object();
  block["quantized_count"] = quantized;
  block["missing_perf_model_count"] = missing_model;
  compute::append_peak_specs(block, inputs.metadata());
  return block;
}

}  // namespace loupe::gemm
