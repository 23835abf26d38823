// findings.json read back as typed values, for everything on the host that presents or gates the
// ranked answer (the terminal summary, --fail-on): one struct for a single run's document
// (loupe.run_findings/2) and a rank set's (loupe.rank_set_findings/2), so no consumer looks up
// members by name (docs/findings-schema.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "loupe/findings.hpp"
#include "loupe/json_value.hpp"

namespace loupe::core {

struct SavingRange {
  double low = 0.0;
  double mid = 0.0;
  double high = 0.0;
};

struct RunFinding {
  std::string id;
  std::int64_t priority = 0;  // P-number; 0 when the finding is unranked
  std::string category;
  std::string tier;  // "compute" / "system"; "" in a rank set's cross-rank cards
  std::string title;
  std::optional<SavingRange> saving_ms;        // null: not quantified
  std::optional<double> saving_percent_mid;    // of the run's end-to-end time
  std::optional<findings::Evidence> evidence;  // absent in documents before evidence levels
  // The what-if's step gain (docs/what-if.md); null when the finding was not replayed.
  std::optional<double> step_gain_ms;
  std::size_t merged_parts = 0;  // cards merged into this one by the time ledger
  std::string findings_file;     // the findings file that explains it (sources.files[1])
};

struct RunFindings {
  std::vector<RunFinding> findings;  // in rank order
  std::optional<double> total_time_ms;
  std::optional<double> idle_time_percent;
  std::optional<double> exposed_comm_time_percent;
  // The step-checked findings applied together, and their savings summed one by one.
  std::optional<double> combined_step_gain_ms;
  std::optional<double> combined_saving_sum_ms;
  std::int64_t step_checked = 0;
  std::size_t capture_findings = 0;  // unranked: the trace records a GPU-graph capture
  std::size_t unmodeled_ops = 0;     // `coverage`: ops without a performance model
  std::optional<double> unmodeled_time_ms;
};

// The typed view of a findings.json document; members a document lacks stay empty.
RunFindings read_run_findings(const Json& document);

}  // namespace loupe::core
