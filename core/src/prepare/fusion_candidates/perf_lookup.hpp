// The kernel-name -> shape -> data split lookup built from unified_perf_summary.csv
// (spec docs/contracts/fusion.md §2.6 "Perf lookup", §1.6 shape_aware_lookup).
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "loupe/core/model/csv_table.hpp"
#include "loupe/json_value.hpp"

namespace loupe::core::prepare::fusion {

struct DataSplit {
  std::optional<double> in_mb;
  std::optional<double> out_mb;
};

// compute_data_in_out(op_category, perf_params, data_moved). Throws ExtractionError where
// TraceLens raises (a GEMM perf_params that is not a dict).
DataSplit compute_data_in_out(std::string_view op_category, std::string_view perf_params,
                              std::optional<double> data_moved_mb);

struct ExtractionError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct PerfEntry {
  std::string op_category;
  DataSplit split;
};

class PerfLookup {
 public:
  // Shapes of one kernel name, insertion-ordered; the key nullopt is "none".
  using Shapes = std::vector<std::pair<std::optional<std::string>, PerfEntry>>;

  static PerfLookup build(const CsvTable& table);

  // The shapes for a kernel name: exact, else the first name in CSV order that is a prefix of
  // it or that it is a prefix of. Null when nothing matches.
  const Shapes* shapes_for(std::string_view kernel_name) const;
  // shape_aware_lookup: the entry for the input dims' shape, else the first shape; null = {}.
  const PerfEntry* lookup(std::string_view kernel_name, const Json& input_dims) const;
  bool is_gemm(std::string_view kernel_name) const;

 private:
  std::vector<std::pair<std::string, Shapes>> names_;
  std::unordered_map<std::string, std::size_t> index_;
};

// Kernel names in a kernel_details_summary cell (regex 'name':\s*'([^']+)').
std::vector<std::string> kernel_names_in_summary(std::string_view summary);

}  // namespace loupe::core::prepare::fusion
