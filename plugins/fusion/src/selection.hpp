// Default-mode selection of the estimates that become findings: Decision 1 rejections that
// the gates do not cover (R5 containers) and the non-overlapping selection (Q2).
#pragma once

#include <string>
#include <vector>

#include "candidate.hpp"
#include "estimate.hpp"

namespace loupe::fusion {

struct RejectedEstimate {
  std::size_t candidate = 0;  // index into the filtered candidates
  std::string operation;
  std::string rule;  // "R5", "Q2" or "I2"
  std::string reason;
};

struct Selection {
  std::vector<Estimate> kept;  // still in impact order
  std::vector<RejectedEstimate> rejected;
};

struct SelectionOptions {
  bool reject_containers = true;  // R5
  bool non_overlapping = true;    // Q2: greedy by impact over gpu_op_uid sets
  // M1: when positive, an estimate whose high saving would take the kept estimates' sum past
  // the run's total GPU time is rejected (rule I2).
  double run_total_ms = 0.0;
};

Selection select_estimates(std::vector<Estimate> sorted, const std::vector<Candidate>& candidates,
                           const SelectionOptions& options);

}  // namespace loupe::fusion
