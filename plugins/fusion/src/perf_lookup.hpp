// The estimator's perf lookup (spec §1.6, §3.4): kernel name -> shape key -> op-level perf
// values from unified_perf_summary.csv, in CSV row order, first row wins.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "loupe/compute/shape_key.hpp"

namespace loupe::fusion {

// A §1.6 shape key (loupe::compute::first_shape_key); std::nullopt is TraceLens's None key.
using ShapeKey = std::optional<std::string>;

struct PerfEntry {
  std::optional<double> data_moved_mb;      // "Data Moved (MB)"; None when missing or NaN
  std::optional<double> gflops;             // "GFLOPS"
  std::optional<std::string> compute_spec;  // "Compute Spec"
};

// One CSV row, reduced to the columns the lookup reads.
struct PerfRow {
  std::optional<std::string> kernel_details_summary;  // nullopt: NaN, the row is skipped
  std::optional<std::string> input_dims;
  PerfEntry entry;
};

// Kernel names of a kernel_details_summary cell: every match of 'name':\s*'([^']+)'.
std::vector<std::string> kernel_names_in_summary(std::string_view summary);

class PerfLookup {
 public:
  void add_row(const PerfRow& row);
  void add(const std::string& kernel, const ShapeKey& shape, const PerfEntry& entry);

  // shape_aware_lookup: exact name, else the first stored name that is a prefix of kname or
  // has kname as a prefix; then the entry for the shape, else the name's first entry.
  // nullptr is TraceLens's {} (no perf data).
  const PerfEntry* find(std::string_view kname, const ShapeKey& shape) const;

  size_t kernel_count() const { return kernels_.size(); }

 private:
  using Shapes = std::vector<std::pair<ShapeKey, PerfEntry>>;
  std::vector<std::pair<std::string, Shapes>> kernels_;  // insertion order
  std::unordered_map<std::string, size_t> index_;
};

}  // namespace loupe::fusion
