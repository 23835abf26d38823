// The efficiency object of one operation: achieved rates, roofline efficiency (standalone) or
// the trace-2 time ratio (comparative), bound type and the resolved peaks.
#pragma once

#include <optional>
#include <string>

#include "loupe/json_value.hpp"
#include "loupe/model.hpp"

namespace loupe::compute {

// The per-row inputs (NaN = missing).
struct EfficiencyInputs {
  double tflops_mean = 0.0;
  double tb_s_mean = 0.0;
  double pct_roofline_mean = 0.0;
  double flops_per_byte = 0.0;
  std::optional<std::string> compute_spec;
  std::optional<std::string> roofline_bound;
  // comparative
  double kernel_time_us = 0.0;
  double delta_us = 0.0;
  double speedup = 0.0;
};

struct Efficiency {
  Json json;  // the "efficiency" object, keys in TraceLens order
  std::optional<double> efficiency_percent;
  std::optional<std::string> bound_type;
  std::optional<std::string> warning;
  bool is_anomaly = false;
};

// The peak for a Compute Spec from metadata (max_achievable_tflops dict, or the scalar
// peak_bf16_maf_tflops, else 1), as the JSON number TraceLens would print.
Json resolve_peak_maf(const JsonView& metadata, const std::optional<std::string>& compute_spec);

// TraceLens's get_peak_specs: appends peak_maf_tflops (max_achievable_tflops.matrix_bf16 when
// that is an object, else peak_bf16_maf_tflops) and peak_hbm_bw_tbs to `block`, null when absent.
void append_peak_specs(Json& block, const JsonView& metadata);

Efficiency compute_efficiency(const EfficiencyInputs& in, const JsonView& metadata,
                              bool comparative);

}  // namespace loupe::compute
