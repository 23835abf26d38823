// The system-tier findings document (docs/findings-schema.md) in the layout of TraceLens's
// CPU/idle sub-agent: status and idle line, utilization table, then the cards.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gap_attribution.hpp"
#include "loupe/findings.hpp"
#include "loupe/vocabulary.hpp"
#include "queue_evidence.hpp"
#include "recommendations.hpp"
#include "utilization.hpp"

namespace loupe::cpu_idle {

struct FindingsInput {
  const Utilization* utilization = nullptr;
  const Breakdown* breakdown = nullptr;  // null: no raw trace
  const std::vector<Candidate>* candidates = nullptr;
  const RecordingWindow* window = nullptr;   // null: no window view (every op analyzed)
  const QueueEvidence* queue = nullptr;      // null: compat mode or no raw trace
  const StepVariation* variation = nullptr;  // default mode: significant step variation
  bool compat = false;
  Scope scope = Scope::Standalone;
};

findings::Document build_findings(const FindingsInput& in);
findings::Document error_findings(const std::string& message, Scope scope);

}  // namespace loupe::cpu_idle
