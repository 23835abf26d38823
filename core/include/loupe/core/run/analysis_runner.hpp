// `loupe analyze`: choose the plugins for an analysis directory, run them in dependency order,
// and write metrics, findings and loupe_run.json.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "loupe/core/model/category_manifest.hpp"
#include "loupe/core/model/model.hpp"
#include "loupe/core/plugin/plugin_registry.hpp"
#include "loupe/core/report/run_finding.hpp"
#include "loupe/core/run/plan_error.hpp"
#include "loupe/core/run/run_outputs.hpp"
#include "loupe/core/whatif/run_graph.hpp"
#include "loupe/findings.hpp"
#include "loupe/json_value.hpp"
#include "loupe/vocabulary.hpp"

namespace loupe::core {

struct AnalyzeOptions {
  std::filesystem::path output_dir;  // where outputs go (the input directory by default)
  std::optional<Scope> scope;        // nullopt: from the manifest
  Compat compat = Compat::None;
  std::optional<Workload> workload;  // --workload; nullopt: detected from the trace (default mode)
  std::vector<std::string> only;     // categories forced by --only (empty: the manifest's)
  bool isolate = true;
  std::chrono::milliseconds timeout{std::chrono::minutes(5)};
  std::uint64_t memory_mb = 4096;  // per plugin child, beyond what it inherits; 0: no limit
  std::vector<std::string> prepared_files;  // what --trace wrote before (recorded as outputs)
  // --trace, default mode: the run's dependency model; the ledger caps each kernel finding's
  // saving by what the step would gain (docs/what-if.md). Null: no step-time check.
  std::shared_ptr<const whatif::RunGraph> run_graph;
  // --capture-trace: what the capture traces attributed (loupe_run.json `capture_traces`);
  // null when none was given.
  Json capture_traces;
};

struct CategoryOutcome {
  std::string category;
  RouteReason routed_by = RouteReason::Category;
  CategoryRole role = CategoryRole::Primary;
  findings::Status status = findings::Status::Error;
  std::string message;             // why, for ERROR / NO_DATA
  std::string truncated;           // what of the plugin's output the host dropped or cut, or ""
  std::string metrics_path;        // relative to the output directory
  std::string findings_path;       // relative to the output directory
  std::size_t findings_count = 0;  // cards in the findings file (OK with 0: nothing to fix)
  // The plugin's findings document as rendered (status OK / NO_DATA), for the run's findings.json.
  std::shared_ptr<const findings::Document> findings_document;
  // The findings file as written (status OK / NO_DATA), for analysis.md: never read back.
  std::string findings_markdown;
  double wall_ms = 0.0;
};

struct PluginOutcome {
  const PluginInfo* plugin = nullptr;
  std::vector<CategoryOutcome> categories;
};

struct AnalyzeReport {
  const PluginSet* discovery = nullptr;  // every plugin file found, for loupe_run.json
  Scope scope = Scope::Standalone;
  Workload workload = Workload::Unknown;
  std::string workload_evidence;          // why: --workload, or what the trace shows
  std::vector<PluginOutcome> plugins;     // in execution order
  std::vector<std::string> unhandled;     // manifest categories no plugin handles
  std::vector<std::string> report_files;  // run-level outputs (priority_data.json, ...), relative
  Json priority_data;                     // what priority_data.json holds
  Json run_findings;                      // what findings.json holds (ranked findings)
  RunFindings findings;                   // its findings, typed (read once from run_findings)
  // Every file the run wrote, as loupe_run.json records them under `outputs` (set once the record
  // is written; empty when it could not be).
  RecordedOutputs outputs;
  // Run-level outputs that could not be written ("file: why"), e.g. when a plugin made part of -o
  // unwritable where the sandbox only detects changes.
  std::vector<std::string> unwritten;
  bool any_error() const;
};

// One category of a plan and why it went to its plugin.
struct PlannedCategory {
  std::string name;
  RouteReason routed_by = RouteReason::Category;
  CategoryRole role = CategoryRole::Primary;
};

// The plugins to run, in dependency order, each with the categories it should analyze: the ones
// it names first (in its own order), then those routed to it by skill or as fallback (in the
// manifest's order), then those it contributes to (ABI 1.2, in the manifest's order; a plugin
// runs after the primary analyzers of the categories it contributes to).
struct PlannedRun {
  const PluginInfo* plugin = nullptr;
  std::vector<PlannedCategory> categories;
};
std::vector<PlannedRun> plan_runs(const Model& model, const PluginSet& plugins,
                                  const std::vector<std::string>& only,
                                  std::vector<std::string>& unhandled);

// Runs the plan. Each finished category's metrics become visible to later plugins as model
// document "category_data/<cat>_metrics.json". Throws PlanError for an impossible request.
AnalyzeReport run_analysis(Model& model, const PluginSet& plugins, const AnalyzeOptions& options);

}  // namespace loupe::core
