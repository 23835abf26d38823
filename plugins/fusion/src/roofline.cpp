#include "roofline.hpp"

#include <algorithm>

namespace loupe::fusion {

double roofline_savings_us(const std::vector<EnrichedKernel>& group, const Peaks& peaks,
                           double target_pct, double bytes_per_mb) {
  std::vector<const EnrichedKernel*> modeled;
  for (const auto& k : group) {
    if (k.has_perf_data) modeled.push_back(&k);
  }
  if (modeled.empty()) return 0.0;
  const EnrichedKernel& first = *modeled.front();
  const EnrichedKernel& last = *modeled.back();
  const double din = first.data_in_mb ? *first.data_in_mb : first.data_moved_mb.value_or(0) / 2.0;
  const double dout = last.data_out_mb ? *last.data_out_mb : last.data_moved_mb.value_or(0) / 2.0;
  const double ext_bytes = (din + dout) * bytes_per_mb;

  double vec_gf = 0.0;
  double mat_gf = 0.0;
  for (const EnrichedKernel* k : modeled) {
    if (!k->gflops || *k->gflops == 0.0) continue;  // Python truthiness
    if (is_matrix(*k)) {
      mat_gf += *k->gflops;
    } else {
      vec_gf += *k->gflops;
    }
  }
  if (ext_bytes <= 0) return 0.0;

  const double frac = target_pct / 100.0;
  const double mem_us = ext_bytes / (peaks.peak_bw_bytes_s * frac) * 1e6;
  const double mat_us = mat_gf > 0 ? (mat_gf * 1e9) / (peaks.matrix_maf * 1e12 * frac) * 1e6 : 0.0;
  const double vec_us = vec_gf > 0 ? (vec_gf * 1e9) / (peaks.vector_maf * 1e12 * frac) * 1e6 : 0.0;
  const double opt = std::max({mem_us, mat_us, vec_us});
  const double total = mem_us + mat_us + vec_us;
  const double fused = opt + (1.0 - kOverlapEfficiency) * (total - opt);

  double unmodeled_us = 0.0;
  double current_us = 0.0;
  for (const auto& k : group) {
    if (!k.has_perf_data) unmodeled_us += k.dur_us;
    current_us += k.dur_us;
  }
  return std::max(0.0, current_us - fused - unmodeled_us);
}

}  // namespace loupe::fusion
