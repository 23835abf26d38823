// The GPU ops of a raw-trace run as the report needs them for the time ledger: each op's measured
// duration, name and launching op (trace/gpu_events.csv), and the GPU ops of every ops-table
// group (trace/op_groups.csv). Empty when the run has no raw trace (analysis-directory input).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "loupe/core/model/model.hpp"

namespace loupe::core::report {

// The names are views into the model's trace/gpu_events.csv: valid while the model is.
struct GpuOpFacts {
  std::int64_t dur_ns = 0;
  std::string_view name;
  std::string_view op_name;
};

class GpuOpIndex {
 public:
  static GpuOpIndex from_model(const Model& model);

  bool empty() const { return ops_.empty(); }
  const GpuOpFacts* find(std::int64_t uid) const;
  // The GPU ops of the ops-table group with this ex_UID (empty when unknown).
  std::span<const std::int64_t> group(std::int64_t ex_uid) const;
  // uid -> measured duration, what the ledger settles against.
  const std::unordered_map<std::int64_t, std::int64_t>& durations() const { return dur_ns_; }

 private:
  std::unordered_map<std::int64_t, GpuOpFacts> ops_;
  std::unordered_map<std::int64_t, std::int64_t> dur_ns_;
  std::unordered_map<std::int64_t, std::vector<std::int64_t>> groups_;
};

}  // namespace loupe::core::report
