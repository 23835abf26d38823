// Roofline projection of a fused elementwise subgroup (spec §3.7, _roofline_savings_us).
#pragma once

#include <vector>

#include "predicates.hpp"

namespace loupe::fusion {

struct Peaks {
  double peak_bw_bytes_s = 0.0;  // peak_hbm_bw_tbs * 1e12
  double vector_maf = 1.0;       // TFLOPS
  double matrix_maf = 1.0;       // TFLOPS
};

// The CSV's "MB" is MiB; TraceLens multiplies by 1e6 (Q5). Default mode uses 2^20.
inline constexpr double kBytesPerMbTraceLens = 1e6;
inline constexpr double kBytesPerMiB = 1048576.0;

// Blend weight of the overlap model: the expression (1.0 - 0.85), 0.15000000000000002.
inline constexpr double kOverlapEfficiency = 0.85;

// Time saved (µs) by fusing the group: measured time minus the fused roofline time of the
// modeled kernels, minus the measured time of the unmodeled kernels; never negative.
double roofline_savings_us(const std::vector<EnrichedKernel>& group, const Peaks& peaks,
                           double target_pct, double bytes_per_mb = kBytesPerMbTraceLens);

}  // namespace loupe::fusion
