// The findings of findings.json as typed values (docs/findings-schema.md, "Run findings" and
// "Rank-set findings"): one `RunFinding` struct behind both documents. The builders fill it and
// write it with `to_json`; everything on the host that presents or gates the ranked answer (the
// terminal summary, --fail-on, analysis.md, report.html, priority_data.json) reads it back with
// `read_run_findings`, so no consumer looks up members by name and every figure comes from the
// one stored (rounded) value.
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

// Which document a finding belongs to: a single run's, or a rank set's (measured across ranks,
// or a per-rank finding summarized over the ranks that have it).
enum class FindingScope { Run, CrossRank, PerRank };

// The step-time check of a finding (docs/what-if.md).
struct StepCheckResult {
  double step_gain_ms = 0.0;
  double unresolved_share = 0.0;
  bool limited_saving = false;
  std::optional<double> cumulative_step_gain_ms;
};

// What the time ledger gave a finding: GPU ops by uid, or measured idle time.
struct OwnedTime {
  std::size_t kernel_count = 0;
  double kernel_time_ms = 0.0;
  std::vector<std::int64_t> kernel_uids;
  std::optional<double> idle_ms;  // set (and the kernel members unused) for idle-time findings
};

// A card the ledger merged into its owner.
struct MergedPart {
  std::string id;
  std::string category;
  std::int64_t category_rank = 0;
  std::optional<std::string> plugin;          // contributed cards only
  std::optional<std::string> plugin_version;  // idem
  bool contributed = false;                   // role "contributing" (docs/plugin-abi.md)
  std::string title;
  std::optional<findings::Evidence> evidence;
  std::optional<SavingRange> stated_saving_ms;
};

struct RunFinding {
  std::string id;
  FindingScope scope = FindingScope::Run;
  std::int64_t priority = 0;  // P-number; 0 when the finding is unranked
  std::string category;
  std::string title;
  std::string insight;
  std::string action;
  std::vector<std::string> source_files;  // [metrics, findings file, ops table]
  std::optional<findings::Evidence> evidence;
  std::optional<SavingRange> saving_ms;  // null: not quantified

  // A single run's finding.
  std::string tier;  // "compute" / "system"
  std::string plugin;
  std::optional<std::string> plugin_version;  // contributed or dropped-in plugins
  bool contributed = false;                   // role "contributing" (docs/plugin-abi.md)
  std::int64_t category_rank = 0;             // its number in its category's findings file
  std::optional<std::string> library;
  std::vector<std::string> operations;
  std::optional<std::string> bound_type;
  std::optional<std::string> estimate_method;
  std::vector<std::string> source_rows;
  std::optional<SavingRange> stated_saving_ms;       // as the plugin stated it
  std::optional<SavingRange> saving_percent_of_e2e;  // of the run's end-to-end time
  std::string ledger;                                // owner / merged / trimmed ...
  std::optional<StepCheckResult> what_if;
  std::vector<std::string> kernels;
  std::optional<double> measured_time_ms;
  std::optional<OwnedTime> owns;
  std::vector<MergedPart> parts;

  // A rank set's finding.
  std::optional<std::vector<int>> ranks;  // per-rank: the ranks that have it; cross-rank: null
  std::optional<int> representative_rank;
  std::optional<std::pair<double, double>> saving_ms_range;  // min and max over the ranks

  // The findings file that explains it (source_files[1]), or "".
  std::string findings_file() const { return source_files.size() > 1 ? source_files[1] : ""; }
  std::optional<double> saving_percent_mid() const {
    return saving_percent_of_e2e ? std::optional<double>(saving_percent_of_e2e->mid) : std::nullopt;
  }
  std::optional<double> step_gain_ms() const {
    return what_if ? std::optional<double>(what_if->step_gain_ms) : std::nullopt;
  }
};

// low/mid/high as a JSON object (the ledger's totals use it too).
Json to_json(const SavingRange& s);

// The member list of one finding, in the documented order of its scope.
Json to_json(const RunFinding& f);

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
RunFinding read_run_finding(const Json& finding);

}  // namespace loupe::core
