// Impact estimates of one candidate (spec §3.6 standalone, §3.8 comparative).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "candidate.hpp"
#include "confidence.hpp"
#include "instance_measurement.hpp"
#include "perf_lookup.hpp"
#include "roofline.hpp"

namespace loupe::fusion {

inline constexpr double kMinImpactScore = 2.0;
inline constexpr double kMinSavingsMs = 0.1;
inline constexpr std::int64_t kMaxFusionKernelCount = 15;

struct EstimateOptions {
  // Q1/M1 (default mode): time and savings from measured kernel time (the candidate's
  // instances found in the trace, else its accumulated total_kernel_time_us when that is a real
  // sum, else the first instance alone) instead of first-instance time x instance_count.
  bool measured_time = false;
  double bytes_per_mb = kBytesPerMbTraceLens;  // Q5
  // M2 (default mode): a GEMM followed only by MoE finalize kernels is no GEMM epilogue (G11).
  bool moe_finalize_not_epilogue = false;
  ConfidenceOptions confidence;
};

// Where an estimate's time_ms comes from.
enum class TimeSource {
  FirstInstanceScaled,  // compat: first instance x instance_count (an extrapolation)
  MeasuredInstances,    // every matched instance's kernels, from the trace timeline
  AccumulatedTotal,     // total_kernel_time_us summed over instances by the candidate scan
  FirstInstanceOnly,    // only the first instance could be measured
};
const char* time_source_name(TimeSource source);

// One shape group of a measured estimate.
struct GroupAccount {
  std::vector<std::string>
      kernel_names;  // what the group launches (the kernel choice shows the shape)
  std::int64_t instances = 0;
  double time_ms = 0.0;          // unrounded
  double savings_high_ms = 0.0;  // unrounded
  double savings_mid_ms = 0.0;   // unrounded; the card's and the metrics' saving
  TimeSource time_source = TimeSource::FirstInstanceScaled;
  std::int64_t measured_instances = 0;  // instances whose kernel time is in time_ms
  std::vector<GroupAccount> groups;     // MeasuredInstances: one per shape group
};

struct Estimate {
  std::size_t candidate = 0;  // index into the filtered candidate list
  bool comparative = false;
  std::string operation;
  double impact_mid = 0.0;  // rounded to 2 decimals, like the metrics
  double impact_low = 0.0;
  double impact_high = 0.0;
  std::string estimation;   // full | partial | measured
  std::string bound_type;   // compute | memory
  std::string fusion_type;  // matrix_compute | memory_bound
  double time_ms = 0.0;     // rounded to 3 decimals
  std::int64_t instance_count = 1;
  std::size_t kernel_count = 0;
  std::size_t modeled_count = 0;
  Json delta_kernel_count;  // comparative only
  Confidence confidence;
  std::vector<EnrichedKernel> kernels;  // the joined kernels, in order
  std::optional<std::string> warning;
  bool has_gemm_epilogue = false;
  double savings_high_ms = 0.0;  // unrounded
  double savings_mid_ms = 0.0;   // unrounded; the card's and the metrics' saving
  TimeSource time_source = TimeSource::FirstInstanceScaled;
  std::int64_t measured_instances = 0;    // instances whose kernel time is in time_ms
  std::vector<GroupAccount> groups;       // MeasuredInstances: one per shape group
  std::vector<std::int64_t> kernel_uids;  // MeasuredInstances: the GPU ops of every instance
};

// Why a candidate produced no estimate (the gate that stopped it).
struct Rejection {
  std::string rule;    // e.g. "G4"
  std::string reason;  // one sentence with the numbers
};

struct EstimateResult {
  std::optional<Estimate> estimate;
  Rejection rejection;  // set when estimate is empty
};

// The enrichment step: each kernel joined with shape_aware_lookup.
std::vector<EnrichedKernel> enrich(const Candidate& c, const PerfLookup& lookup);

// `measured` (default mode) holds the candidate's instances found in the trace.
EstimateResult standalone_estimate(const Candidate& c, std::size_t index, const PerfLookup& lookup,
                                   const Peaks& peaks, double baseline_ms,
                                   const EstimateOptions& options,
                                   const InstanceMeasurement* measured = nullptr);

// True when total_kernel_time_us is the first instance's kernel time x instance_count because
// the candidate scan narrowed the kernels to the attention core inside the module (GEMM,
// softmax, GEMM; the total is then exactly the scaled first instance), not a measured sum.
bool total_is_first_instance_scaled(const Candidate& c);

EstimateResult comparative_estimate(const Candidate& c, std::size_t index, double baseline_ms,
                                    const EstimateOptions& options);

// Subgroup split (spec §3.6): each matrix kernel starts a group.
enum class SubgroupKind { GemmEpilogue, GemmOnly, Elementwise };
struct Subgroup {
  SubgroupKind kind;
  std::vector<EnrichedKernel> kernels;
};
std::vector<Subgroup> split_into_subgroups(const std::vector<EnrichedKernel>& kernels);

}  // namespace loupe::fusion
