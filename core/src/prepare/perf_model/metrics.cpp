// Metric columns common to all models (docs/contracts/trace_model.md §3.9.3) and the dtype tables.
#include <cmath>
#include <limits>
#include <string>
#include <unordered_map>

#include "json_text.hpp"
#include "loupe/compute/op_fields.hpp"
#include "loupe/text.hpp"
#include "model_support.hpp"

namespace loupe::core::prepare::perf {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace

std::optional<int> bytes_per_element(std::string_view dtype) {
  static const std::unordered_map<std::string, int> kBpe = {
      {"double", 8},
      {"long int", 8},
      {"float", 4},
      {"scalar", 4},
      {"int", 4},
      {"c10::half", 2},
      {"c10::bfloat16", 2},
      {"c10::float8_e4m3fnuz", 1},
      {"c10::float8_e4m3fn", 1},
      {"c10::float8_e5m2", 1},
      {"c10::float8_e8m0fnu", 1},
      {"unsigned char", 1},
      {"signed char", 1},
      {"fp8", 1},
      {"c10::float4_e2m1fn_x2", 1},
      {"fp4", 1},
  };
  const auto it = kBpe.find(text::ascii_lower(dtype));
  if (it == kBpe.end()) return std::nullopt;
  return it->second;
}

std::string compute_precision(std::string_view dtype) {
  // The perf report's torch_dtype_map, shared with the analyzers' SDK.
  return loupe::compute::torch_dtype_precision(dtype).value_or(std::string());
}

std::optional<Arch> parse_arch_json(std::string_view json_text) {
  const auto doc = try_parse_json_text(json_text);
  if (!doc || !doc->is_object()) return std::nullopt;
  Arch arch;
  if (const Json* bw = doc->find("mem_bw_gbps"); bw != nullptr && bw->is_number()) {
    arch.mem_bw_gbps = bw->as_double();
  }
  if (const Json* peaks = doc->find("max_achievable_tflops"); peaks != nullptr) {
    if (!peaks->is_object()) return std::nullopt;
    for (const auto& [key, value] : peaks->as_object()) {
      if (value.is_number()) arch.max_achievable_tflops.emplace(key, value.as_double());
    }
  }
  return arch;
}

Metrics compute_metrics(const ModelResult& result, double kernel_time_us, const Arch* arch) {
  Metrics m;
  const double flops = result.flops.to_double();
  m.gflops = flops / 1e9;
  m.tflops_per_s = kernel_time_us == 0.0 ? kNaN : (m.gflops / 1e3) / (kernel_time_us / 1e6);
  m.compute_spec = result.compute_spec;
  m.flops_per_byte = kNaN;
  m.tb_per_s = kNaN;
  m.pct_roofline = kNaN;
  if (!result.bytes) return m;
  const FormulaNumber& bytes = *result.bytes;
  const double bytes_d = bytes.to_double();
  m.data_moved_mb = bytes_d / 1048576.0;
  // TraceLens derives the remaining columns from GFLOPS, not from the exact flops.
  const double flops_again = m.gflops * 1e9;
  if (!bytes.zero()) m.flops_per_byte = flops_again / bytes_d;
  if (kernel_time_us != 0.0) m.tb_per_s = (bytes_d / 1e12) / (kernel_time_us / 1e6);
  if (arch == nullptr || !result.flops.positive() || m.compute_spec.empty()) return m;
  const auto peak = arch->max_achievable_tflops.find(m.compute_spec);
  if (peak == arch->max_achievable_tflops.end() || arch->mem_bw_gbps <= 0.0) return m;
  const double compute_us = flops_again / (peak->second * 1e12) * 1e6;
  const double memory_us = bytes_d / (arch->mem_bw_gbps * 1e9) * 1e6;
  m.roofline_time_us = std::max(compute_us, memory_us);
  m.roofline_bound = compute_us >= memory_us ? "COMPUTE_BOUND" : "MEMORY_BOUND";
  if (kernel_time_us != 0.0) m.pct_roofline = *m.roofline_time_us / kernel_time_us * 100.0;
  return m;
}

}  // namespace loupe::core::prepare::perf
