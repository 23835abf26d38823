// Reading the analyzer's inputs from the host model (spec §1, §3.2 "Load"), with a clear
// error naming the file and the problem for every bad input.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "candidate.hpp"
#include "instance_measurement.hpp"
#include "loupe/model.hpp"
#include "perf_lookup.hpp"
#include "roofline.hpp"

namespace loupe::fusion {

struct Inputs {
  std::vector<Candidate> candidates;
  double baseline_ms = 0.0;         // manifest gpu_utilization.total_time_ms, default 0
  bool baseline_is_int = true;      // Python repr of the baseline in messages
  std::string platform = "MI300X";  // manifest platform, default MI300X
  std::string csv_dir;              // perf_report_csvs or perf_report_trace1_csvs
  PerfLookup lookup;
  // Default mode: the raw trace's kernels (absent when the run starts from an analysis
  // directory), for time accounting from measurements (M1).
  std::optional<KernelTimeline> timeline;
};

struct InputError {
  std::string message;
};

// The analysis directory the inputs come from, as messages about a missing input name it
// (TraceLens reads and writes one directory, so its messages say the same path).
std::string input_dir_of(const ModelView& model);

// Loads candidates, manifest and perf CSV in TraceLens's order. The comparative flag picks the
// comparative candidate fields (kernel_count_trace1, kernels_trace1, ...).
std::variant<Inputs, InputError> load_inputs(const ModelView& model, bool comparative);

struct ArchConfig {
  Json peak_hbm_bw_tbs;  // echoed in the metrics exactly as resolved
  Peaks peaks;
  std::string source;  // the document it came from
};

// load_arch_config (spec §1.7): the first metadata/*_metadata.json with both peak keys, else
// the bundled arch/<platform>.json. Unknown platform: an error (Q9).
std::variant<ArchConfig, InputError> resolve_arch(const ModelView& model,
                                                  const std::string& platform);

}  // namespace loupe::fusion
