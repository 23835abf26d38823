#include "loupe/core/run/analysis_runner.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <spdlog/spdlog.h>

#include "../plugin/plugin_probe.hpp"
#include "loupe/core/report/memory_report.hpp"
#include "loupe/core/report/priority_data.hpp"
#include "loupe/core/report/recording_report.hpp"
#include "loupe/core/report/run_findings.hpp"
#include "loupe/core/report/run_report.hpp"
#include "loupe/core/report/serving_report.hpp"
#include "loupe/core/report/steps_report.hpp"
#include "loupe/core/run/category_finalizer.hpp"
#include "loupe/core/run/plugin_executor.hpp"
#include "loupe/core/run/run_record.hpp"
#include "loupe/core/util/atomic_file.hpp"
#include "loupe/core/util/json_convert.hpp"
#include "loupe/core/util/text_escape.hpp"
#include "loupe/layout.hpp"
#include "workload_detection.hpp"

namespace loupe::core {

namespace {

Scope resolve_scope(const Model& model, const std::optional<Scope>& requested) {
  if (requested) return *requested;
  const auto* manifest = model.document(kCategoryManifest);
  if (manifest != nullptr && manifest->IsObject()) {
    const auto it = manifest->FindMember("comparison_scope");
    if (it != manifest->MemberEnd() && it->value.IsString() &&
        std::string_view(it->value.GetString()) == "comparative") {
      return Scope::Comparative;
    }
  }
  return Scope::Standalone;
}

}  // namespace

namespace {

// priority_data.json from this run's metrics files (docs/report.md); skipped without a manifest
// (an --only run of a bare directory has nothing to rank against).
// Default mode passes findings.json's document for the run's one numbering; compat passes null.
void write_priority_data(const Model& model, AnalyzeReport& report,
                         const std::filesystem::path& output_dir, const RunFindings* run_findings) {
  const auto* manifest = model.document(kCategoryManifest);
  if (manifest == nullptr) return;
  std::vector<MetricsFile> files;
  for (const auto& plugin : report.plugins) {
    for (const auto& c : plugin.categories) {
      // Contributions add findings, not categories: priority_data ranks the manifest's.
      if (c.metrics_path.empty() || c.role == CategoryRole::Contributing) continue;
      if (const auto* metrics = model.document(c.metrics_path)) {
        files.push_back(
            {std::filesystem::path(c.metrics_path).filename().string(), to_owned_json(*metrics)});
      }
    }
  }
  report.priority_data = build_priority_data(to_owned_json(*manifest), std::move(files));
  if (run_findings != nullptr) number_priority_data(report.priority_data, *run_findings);
  const Json& priority = report.priority_data;
  try {
    write_file_atomically(output_dir / kPriorityDataFile, priority_data_text(priority));
    report.report_files.emplace_back(kPriorityDataFile);
  } catch (const std::exception& e) {
    spdlog::error("{} could not be written: {}", kPriorityDataFile, e.what());
    report.unwritten.push_back(std::string(kPriorityDataFile) + ": " + e.what());
  }
}

// A GPU-graph capture trace records the one-time capture, not a step (docs/report.md, "Trace
// kind"): its findings are kept as `capture_findings`, unranked, and none is a step-time finding.
void set_aside_capture_findings(Json& run_findings) {
  const Json* recording = run_findings.find("recording");
  const Json* kind = recording == nullptr ? nullptr : recording->find("trace_kind");
  const Json* name = kind == nullptr ? nullptr : kind->find("kind");
  if (name == nullptr || !name->is_string() || name->as_string() != "graph_capture") return;
  const Json* findings = run_findings.find("findings");
  if (findings == nullptr || !findings->is_array()) return;
  Json set_aside = std::move(run_findings["findings"]);
  for (auto& f : set_aside.as_array()) f["priority"] = nullptr;
  run_findings["capture_findings"] = std::move(set_aside);
  run_findings["findings"] = Json::array();
  if (run_findings.find("ledger") != nullptr) {
    Json zero = Json::object();
    zero["low"] = 0.0;
    zero["mid"] = 0.0;
    zero["high"] = 0.0;
    run_findings["ledger"]["ranked_saving_ms"] = std::move(zero);
    run_findings["ledger"]["combined_step_gain_ms"] = 0.0;
    run_findings["ledger"]["combined_saving_sum_ms"] = 0.0;
  }
}

// The platform's device memory in GiB (its metadata's memory_gb), 0 when unknown.
double platform_memory_gib(const Model& model) {
  const auto* meta = model.document("metadata/cpu_idle_metadata.json");
  if (meta == nullptr || !meta->IsObject()) return 0.0;
  const auto it = meta->FindMember("memory_gb");
  return it != meta->MemberEnd() && it->value.IsNumber() ? it->value.GetDouble() : 0.0;
}

// findings.json: every finding of the run in one ranked, versioned document
// (docs/findings-schema.md).
void write_run_findings(const Model& model, AnalyzeReport& report,
                        const std::filesystem::path& output_dir, Compat compat,
                        const whatif::RunGraph* run_graph) {
  report.run_findings = build_run_findings(model, report, compat, run_graph);
  // Serving steps and GPU graphs (docs/report.md): default mode, from a raw trace only.
  if (const auto* serving = model.document("trace/serving_summary.json");
      serving != nullptr && compat != Compat::TraceLens) {
    report.run_findings["serving"] = serving_report_block(to_owned_json(*serving));
  }
  // The recording window (docs/report.md, "Recording window"): default mode, raw trace only.
  if (const auto* window = model.document("trace/recording_window.json");
      window != nullptr && compat != Compat::TraceLens) {
    if (Json block = recording_report_block(to_owned_json(*window), report.workload,
                                            report.workload_evidence);
        !block.is_null()) {
      report.run_findings["recording"] = std::move(block);
    }
  }
  // The steps (docs/report.md, "Steps"): default mode, raw trace only.
  if (const auto* steps = model.document("trace/steps.json");
      steps != nullptr && compat != Compat::TraceLens) {
    if (Json block = steps_report_block_from_document(to_owned_json(*steps)); !block.is_null()) {
      report.run_findings["steps"] = std::move(block);
    }
  }
  // Device memory (docs/report.md, "Memory"): default mode, raw trace only.
  if (const auto* memory = model.document("trace/memory.json");
      memory != nullptr && compat != Compat::TraceLens) {
    if (Json block = memory_report_block(to_owned_json(*memory), platform_memory_gib(model));
        !block.is_null()) {
      report.run_findings["memory"] = std::move(block);
    }
  }
  set_aside_capture_findings(report.run_findings);
  report.findings = read_run_findings(report.run_findings);
  const Json& doc = report.run_findings;
  try {
    write_file_atomically(output_dir / kRunFindingsFile, run_findings_text(doc));
    report.report_files.emplace_back(kRunFindingsFile);
  } catch (const std::exception& e) {
    spdlog::error("{} could not be written: {}", kRunFindingsFile, e.what());
    report.unwritten.push_back(std::string(kRunFindingsFile) + ": " + e.what());
  }
}

}  // namespace

bool AnalyzeReport::any_error() const {
  if (!unwritten.empty()) return true;
  for (const auto& p : plugins) {
    for (const auto& c : p.categories) {
      if (c.status == findings::Status::Error) return true;
    }
  }
  return false;
}

namespace {

// The manifest entry of a category named by --only, when the manifest has one; otherwise what
// the model shows: a category_data/<name>_ops.csv makes it a compute category.
ManifestCategory describe_requested(const Model& model, const std::string& name) {
  const auto* manifest = model.document(kCategoryManifest);
  if (manifest != nullptr && manifest->IsObject()) {
    try {
      for (auto& entry : manifest_categories(model)) {
        if (entry.name == name) return entry;
      }
    } catch (const PlanError&) {
      // --only does not need a well-formed manifest; the name alone is routed.
    }
  }
  ManifestCategory described{name, {}, std::nullopt};
  if (model.table("category_data/" + name + "_ops.csv") != nullptr) described.tier = Tier::Compute;
  return described;
}

}  // namespace

std::vector<PlannedRun> plan_runs(const Model& model, const PluginSet& plugins,
                                  const std::vector<std::string>& only,
                                  std::vector<std::string>& unhandled) {
  std::vector<std::pair<std::string, Route>> wanted;  // in manifest (or --only) order
  if (only.empty()) {
    for (const auto& entry : manifest_categories(model)) {
      if (const auto route = plugins.route(entry.name, entry.skill, entry.tier)) {
        wanted.emplace_back(entry.name, *route);
      } else {
        unhandled.push_back(entry.name);
      }
    }
    // Vendor categories (docs/plugin-abi.md): routed like manifest entries, after them.
    for (const auto& entry : vendor_categories(model)) {
      if (std::any_of(wanted.begin(), wanted.end(),
                      [&](const auto& w) { return w.first == entry.name; })) {
        continue;
      }
      if (const auto route = plugins.route(entry.name, entry.skill, entry.tier)) {
        wanted.emplace_back(entry.name, *route);
      } else {
        unhandled.push_back(entry.name);
      }
    }
  } else {
    for (const auto& name : only) {
      if (!is_safe_name(name)) {
        throw PlanError("--only: '" + name +
                        "' is not a category name (1-64 characters of A-Z a-z 0-9 _ -)");
      }
      const ManifestCategory entry = describe_requested(model, name);
      const auto route = plugins.route(entry.name, entry.skill, entry.tier);
      if (!route) {
        throw PlanError("no loaded plugin handles category '" + name + "' (see `loupe plugins`)");
      }
      wanted.emplace_back(name, *route);
    }
  }

  std::vector<PlannedRun> runs;
  for (const auto& plugin : plugins.plugins) {
    PlannedRun run{&plugin, {}};
    for (const auto& category : plugin.categories) {
      for (const auto& [name, route] : wanted) {
        if (name == category && route.plugin == &plugin) {
          run.categories.push_back({name, RouteReason::Category});
          break;
        }
      }
    }
    for (const auto& [name, route] : wanted) {
      if (route.plugin == &plugin && route.reason != RouteReason::Category) {
        run.categories.push_back({name, route.reason});
      }
    }
    // Contributions (ABI 1.2): beside the primary analyzer of a category this run analyzes.
    for (const auto& [name, route] : wanted) {
      if (route.plugin != &plugin && std::find(plugin.contributes.begin(), plugin.contributes.end(),
                                               name) != plugin.contributes.end()) {
        run.categories.push_back({name, RouteReason::Category, CategoryRole::Contributing});
      }
    }
    if (!run.categories.empty()) runs.push_back(std::move(run));
  }

  // Stable topological order: a plugin runs after the plugins whose categories it reads, and
  // after the primary analyzers of the categories it contributes to.
  std::map<std::string, size_t> producer;  // category -> index in runs
  for (size_t i = 0; i < runs.size(); ++i) {
    for (const auto& c : runs[i].categories) {
      if (c.role == CategoryRole::Primary) producer[c.name] = i;
    }
  }
  auto depends_on = [&](const PlannedRun& run) {
    std::vector<std::string> deps = run.plugin->reads;
    for (const auto& c : run.categories) {
      if (c.role == CategoryRole::Contributing) deps.push_back(c.name);
    }
    return deps;
  };
  std::vector<PlannedRun> ordered;
  std::vector<bool> done(runs.size(), false);
  while (ordered.size() < runs.size()) {
    bool progressed = false;
    for (size_t i = 0; i < runs.size(); ++i) {
      if (done[i]) continue;
      bool ready = true;
      for (const auto& dep : depends_on(runs[i])) {
        const auto it = producer.find(dep);
        if (it != producer.end() && it->second != i && !done[it->second]) ready = false;
      }
      if (ready) {
        done[i] = true;
        ordered.push_back(runs[i]);
        progressed = true;
      }
    }
    if (!progressed) {
      std::string names;
      for (size_t i = 0; i < runs.size(); ++i) {
        if (!done[i]) names += (names.empty() ? "" : ", ") + runs[i].plugin->name;
      }
      throw PlanError("plugins read each other's results in a cycle: " + names);
    }
  }
  return ordered;
}

AnalyzeReport run_analysis(Model& model, const PluginSet& plugins, const AnalyzeOptions& options) {
  AnalyzeReport report;
  report.discovery = &plugins;
  report.scope = resolve_scope(model, options.scope);
  std::error_code ec;
  model.set_property("output_dir",
                     std::filesystem::absolute(options.output_dir, ec).lexically_normal().string());
  model.set_property("scope", to_string(report.scope));
  const auto runs = plan_runs(model, plugins, options.only, report.unhandled);
  // A plugin sees only this run's results of the categories this run analyzes: a metrics file
  // left in the input directory for one of them (an earlier run's, TraceLens's) is not an input.
  for (const auto& run : runs) {
    for (const auto& category : run.categories) {
      model.remove_document(
          layout::metrics_path(category_output_stem(*run.plugin, category.name, category.role)));
    }
  }
  for (const auto& name : report.unhandled) {
    spdlog::info("no plugin handles category '{}'; skipped", name);
  }

  ExecutionRequest request;
  request.scope = static_cast<std::int32_t>(report.scope);
  request.compat = static_cast<std::int32_t>(options.compat);
  report.workload = options.workload.value_or(Workload::Unknown);
  // Default mode: without --workload, the trace tells (compat keeps TraceLens's "unknown").
  if (!options.workload && options.compat == Compat::None) {
    const WorkloadDetection detected = detect_workload(model);
    if (detected.workload != Workload::Unknown) {
      report.workload = detected.workload;
      report.workload_evidence = detected.evidence;
      model.set_property("workload_evidence", detected.evidence);
      spdlog::info("workload: {} ({})", to_string(report.workload), detected.evidence);
    }
  } else if (options.workload) {
    report.workload_evidence = std::string("--workload ") + to_string(*options.workload);
  }
  request.workload = static_cast<std::int32_t>(report.workload);

  const FinalizeOptions finalize{options.output_dir, report.scope, options.compat};
  IsolationLimits limits;
  limits.timeout = options.timeout;
  limits.memory_mb = options.memory_mb;
  limits.protected_dirs.emplace_back(options.output_dir);
  if (const std::string* input = model.property("input_dir"); input != nullptr) {
    limits.protected_dirs.emplace_back(*input);
  }
  size_t step = 0;
  size_t total = 0;
  for (const auto& run : runs) total += run.categories.size();

  for (const auto& run : runs) {
    PluginOutcome outcome{run.plugin, {}};
    for (const auto& planned : run.categories) {
      const std::string& category = planned.name;
      ++step;
      if (planned.role == CategoryRole::Contributing) {
        spdlog::info("[{}/{}] {}: contributing to {}", step, total, run.plugin->name, category);
      } else if (planned.routed_by == RouteReason::Category) {
        spdlog::info("[{}/{}] {}: analyzing {}", step, total, run.plugin->name, category);
      } else {
        spdlog::info("[{}/{}] {}: analyzing {} (routed by {})", step, total, run.plugin->name,
                     category, to_string(planned.routed_by));
      }
      request.plugin = run.plugin;
      request.category = category;
      const ExecutionResult result = options.isolate ? execute_isolated(model, request, limits)
                                                     : execute_in_process(model, request);
      CategoryOutcome done =
          finalize_category(model, *run.plugin, category, result, finalize, planned.role);
      done.wall_ms = result.wall_ms;
      done.routed_by = planned.routed_by;
      done.truncated = result.truncated;
      if (!done.truncated.empty()) {
        spdlog::warn("{}: {}: output cut: {}", run.plugin->name, category, done.truncated);
      }
      if (done.status == findings::Status::Error && planned.role == CategoryRole::Contributing) {
        spdlog::error(
            "{}: its contribution to {} ended in ERROR (the primary's outputs are "
            "unaffected): {}",
            run.plugin->name, category, escape_for_terminal(done.message));
      } else if (done.status == findings::Status::Error) {
        spdlog::error("{}: {} ended in ERROR: {}", run.plugin->name, category,
                      escape_for_terminal(done.message));
      } else {
        spdlog::info("{}: {} {} in {:.1f} ms", run.plugin->name, category,
                     findings::to_string(done.status), done.wall_ms);
      }
      outcome.categories.push_back(std::move(done));
    }
    report.plugins.push_back(std::move(outcome));
  }
  write_run_findings(model, report, options.output_dir, options.compat, options.run_graph.get());
  write_priority_data(model, report, options.output_dir,
                      options.compat != Compat::TraceLens ? &report.findings : nullptr);
  write_run_report(model, report, options.output_dir, options.compat);
  // A plugin may have made part of -o unwritable (where the sandbox only detects changes): the
  // host still writes what it can and says what it could not.
  try {
    write_run_record(options.output_dir, model, report, options);
    report.outputs = run_outputs(report, options);
  } catch (const std::exception& e) {
    spdlog::error("loupe_run.json could not be written: {}", e.what());
    report.unwritten.push_back(std::string("loupe_run.json: ") + e.what());
  }
  return report;
}

}  // namespace loupe::core
