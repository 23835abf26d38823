// The fusion candidates as read from category_data/fusion_candidates.json (spec §1.2, §1.3).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "loupe/json_value.hpp"

namespace loupe::fusion {

// One GPU kernel of a candidate. Module-walk kernels use name/type, sibling-sequence kernels
// kernel_name/kernel_type; both are read into the same fields.
struct Kernel {
  std::string name;              // "name", else "kernel_name", else ""
  std::string type = "Unknown";  // "type", else "kernel_type", else "Unknown"
  double dur_us = 0.0;
  std::optional<double> data_in_mb;
  std::optional<double> data_out_mb;
  std::optional<std::int64_t> gpu_op_uid;
};

struct Candidate {
  std::size_t file_index = 0;     // position in fusion_candidates.json
  std::string operation;          // base_name, else module_name (key absent), else "Unknown"
  std::string base_name;          // "" when absent
  std::string module_name;        // "" when absent
  std::string source = "module";  // "module" or "sibling_sequence"
  std::vector<std::string> parent_chain;
  std::optional<std::int64_t> instance_count;  // absent: 1 in estimates, 0 in the dedup key
  std::optional<std::int64_t> kernel_count;    // kernel_count / kernel_count_trace1
  std::optional<std::int64_t> kernel_count_trace2;
  Json delta;                   // comparative "delta" as written (null when absent)
  std::vector<Kernel> kernels;  // kernels / kernels_trace1
  std::vector<Kernel> kernels_trace2;
  bool has_fused_kernel = false;
  std::optional<double> total_us;  // total_kernel_time_us / total_kernel_time_us_trace1
  std::optional<double> total_us_trace2;
  Json input_dims;  // null when absent

  std::int64_t instances_or_one() const { return instance_count.value_or(1); }
};

}  // namespace loupe::fusion
