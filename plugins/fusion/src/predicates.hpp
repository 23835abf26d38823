// Kernel predicates shared by the estimator, confidence and pattern rules (spec §3.6).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "candidate.hpp"
#include "loupe/text.hpp"

namespace loupe::fusion {

// A candidate kernel joined with its perf lookup entry (spec §3.6, "Enrichment").
struct EnrichedKernel {
  std::string name;
  std::string type;
  double dur_us = 0.0;
  std::optional<double> data_moved_mb;
  std::optional<double> data_in_mb;
  std::optional<double> data_out_mb;
  std::optional<double> gflops;
  std::optional<std::string> compute_spec;
  bool has_perf_data = false;
  std::optional<std::int64_t> gpu_op_uid;
};

// _is_matrix_op: a matrix Compute Spec, or "GEMM"/"CONV" in the upper-cased type.
bool is_matrix(const EnrichedKernel& k);
// _is_norm_kernel: a norm type, or a norm pattern in the lower-cased name.
bool is_norm(const EnrichedKernel& k);

using loupe::text::contains;

}  // namespace loupe::fusion
