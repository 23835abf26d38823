// Default-mode time accounting from measurements (docs/deviations.md, fusion "M1"): every
// instance of a candidate is found in the raw trace's kernel timeline and its kernels' measured
// durations are summed, grouped by the kernels the instance launched (same kernels = same shape
// signature), so that no estimate rests on the first instance times the instance count.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "candidate.hpp"
#include "loupe/model.hpp"

namespace loupe::fusion {

// One kernel launch of trace/gpu_events.csv (kind kernel).
struct KernelLaunch {
  std::int64_t uid = 0;
  std::string name;
  std::string stream;  // "<device>/<stream>"
  std::int64_t ts_ns = 0;
  double dur_us = 0.0;
  std::int64_t op_uid = -1;  // nearest cpu_op above the launch, -1 when none
  std::string op_name;
};

// The kernels of the trace, per stream in time order, addressable by uid.
class KernelTimeline {
 public:
  explicit KernelTimeline(std::vector<KernelLaunch> launches);

  // Reads trace/gpu_events.csv; nullopt when the view is absent (analysis directory input).
  static std::optional<KernelTimeline> from_model(const ModelView& model);

  struct Position {
    std::size_t stream = 0;
    std::size_t index = 0;  // within the stream
  };
  std::optional<Position> find(std::int64_t uid) const;
  // The kernels of one stream in time order, as indices for launch().
  const std::vector<std::size_t>& stream(std::size_t s) const { return streams_[s]; }
  const KernelLaunch& launch(std::size_t i) const { return launches_[i]; }

 private:
  std::vector<KernelLaunch> launches_;
  std::vector<std::vector<std::size_t>> streams_;
  std::unordered_map<std::int64_t, Position> by_uid_;
};

// Instances that launched the same kernels, position by position.
struct InstanceGroup {
  std::vector<std::string> kernel_names;
  std::int64_t instances = 0;
  std::vector<double> dur_us;  // per kernel position, summed over the group's instances
  double total_us() const;
};

enum class MeasurementStatus {
  Measured,              // every group below comes from the trace
  NoTimeline,            // no raw trace (trace/gpu_events.csv absent)
  FirstInstanceMissing,  // a first-instance kernel (gpu_op_uid) is not in the timeline
  Ambiguous,             // more matches than instance_count: the sequence is not specific
};

struct InstanceMeasurement {
  MeasurementStatus status = MeasurementStatus::NoTimeline;
  std::int64_t matched_instances = 0;
  std::vector<InstanceGroup> groups;  // first group: the first instance's kernels
  double total_us = 0.0;
  std::vector<std::int64_t> kernel_uids;  // every matched instance's kernels (the card's claims)
};

// Finds the instances of `c`: runs of consecutive kernels on the first instance's stream whose
// launching ops (op_name, and whether consecutive kernels share the op) equal the first
// instance's. Matches do not overlap; the first instance is always one of them.
InstanceMeasurement measure_instances(const Candidate& c, const KernelTimeline* timeline);

const char* status_name(MeasurementStatus status);

}  // namespace loupe::fusion
