// kernel_fusion_metrics.json layouts (spec §3.11) and the high-confidence kernel map (§3.12).
#pragma once

#include <string>
#include <vector>

#include "candidate.hpp"
#include "estimate.hpp"
#include "loupe/json_value.hpp"
#include "selection.hpp"

namespace loupe::fusion {

Json error_metrics(const std::string& message);
Json no_data_metrics();

// One estimate object, keys in TraceLens's order. with_extras adds Loupe's candidate_index
// and source (Q4), absent in compat mode.
Json estimate_json(const Estimate& e, const Candidate& c, bool with_extras);

// high_confidence_kernel_map: for each high-confidence estimate in order, each non-empty
// kernel name -> operation (later estimates overwrite the value; the key keeps its place).
// matrix_kernels=false (Q3) maps only the kernels that fusion removes (non-matrix).
Json kernel_map(const std::vector<Estimate>& estimates, bool matrix_kernels);

struct GateRejection {
  std::size_t candidate = 0;
  Rejection rejection;
};

struct OkMetricsInput {
  const std::vector<Candidate>* candidates = nullptr;  // filtered
  const std::vector<Estimate>* estimates = nullptr;    // sorted (and selected in default mode)
  std::string platform;
  Json peak_hbm_bw_tbs;
  bool compat = true;
  // Default mode only:
  const std::vector<GateRejection>* gate_rejections = nullptr;
  const std::vector<RejectedEstimate>* rejected = nullptr;
};

Json ok_metrics(const OkMetricsInput& in);

}  // namespace loupe::fusion
