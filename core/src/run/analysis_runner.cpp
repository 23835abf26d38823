#include "loupe/core/analysis_runner.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <spdlog/spdlog.h>

#include "../plugin/plugin_probe.hpp"
#include "loupe/core/category_finalizer.hpp"
#include "loupe/core/plugin_executor.hpp"
#include "loupe/core/run_record.hpp"
#include "workload_detection.hpp"

namespace loupe::core {

namespace {

constexpr const char* kManifest = "category_data/category_manifest.json";

}  // namespace

std::vector<std::string> manifest_categories(const Model& model) {
  const auto* manifest = model.document(kManifest);
  if (manifest == nullptr) {
    std::string why = std::string("no ") + kManifest;
    if (const auto* err = model.property(std::string("load_error:") + kManifest)) why = *err;
    throw PlanError(why + "; name the categories to analyze with --only");
  }
  if (!manifest->IsObject()) {
    throw PlanError(std::string(kManifest) + " is not a JSON object");
  }
  const auto it = manifest->FindMember("categories");
  if (it == manifest->MemberEnd() || !it->value.IsArray()) {
    throw PlanError(std::string(kManifest) + " has no 'categories' list");
  }
  std::vector<std::string> names;
  rapidjson::SizeType index = 0;
  for (const auto& entry : it->value.GetArray()) {
    const rapidjson::Value* name = nullptr;
    if (entry.IsObject()) {
      const auto member = entry.FindMember("name");
      if (member != entry.MemberEnd() && member->value.IsString()) name = &member->value;
    }
    if (name == nullptr || !is_safe_name(name->GetString())) {
      throw PlanError(std::string(kManifest) + ": categories[" + std::to_string(index) +
                      "] is not an object with a valid \"name\" (1-64 characters of A-Z a-z "
                      "0-9 _ -)");
    }
    names.emplace_back(name->GetString());
    ++index;
  }
  return names;
}

namespace {

std::string resolve_scope(const Model& model, const std::string& requested) {
  if (!requested.empty()) return requested;
  const auto* manifest = model.document(kManifest);
  if (manifest != nullptr && manifest->IsObject()) {
    const auto it = manifest->FindMember("comparison_scope");
    if (it != manifest->MemberEnd() && it->value.IsString() &&
        std::string_view(it->value.GetString()) == "comparative") {
      return "comparative";
    }
  }
  return "standalone";
}

int32_t workload_code(const std::string& workload) {
  if (workload == "training") return LOUPE_WORKLOAD_TRAINING;
  if (workload == "inference") return LOUPE_WORKLOAD_INFERENCE;
  return LOUPE_WORKLOAD_UNKNOWN;
}

const char* workload_name(Workload workload) {
  switch (workload) {
    case Workload::Training:
      return "training";
    case Workload::Inference:
      return "inference";
    case Workload::Unknown:
      break;
  }
  return "";
}

}  // namespace

bool AnalyzeReport::any_error() const {
  for (const auto& p : plugins) {
    for (const auto& c : p.categories) {
      if (c.status == "ERROR") return true;
    }
  }
  return false;
}

std::vector<PlannedRun> plan_runs(const Model& model, const PluginSet& plugins,
                                  const std::vector<std::string>& only,
                                  std::vector<std::string>& unhandled) {
  std::vector<std::string> wanted = only;
  if (wanted.empty()) {
    for (const auto& name : manifest_categories(model)) {
      if (plugins.find_by_category(name) == nullptr) {
        unhandled.push_back(name);
      } else {
        wanted.push_back(name);
      }
    }
  } else {
    for (const auto& name : wanted) {
      if (!is_safe_name(name)) {
        throw PlanError("--only: '" + name +
                        "' is not a category name (1-64 characters of A-Z a-z 0-9 _ -)");
      }
      if (plugins.find_by_category(name) == nullptr) {
        throw PlanError("no loaded plugin handles category '" + name + "' (see `loupe plugins`)");
      }
    }
  }
  const std::set<std::string> wanted_set(wanted.begin(), wanted.end());

  std::vector<PlannedRun> runs;
  for (const auto& plugin : plugins.plugins) {
    PlannedRun run{&plugin, {}};
    for (const auto& category : plugin.categories) {
      if (wanted_set.count(category) > 0) run.categories.push_back(category);
    }
    if (!run.categories.empty()) runs.push_back(std::move(run));
  }

  // Stable topological order: a plugin runs after the plugins whose categories it reads.
  std::map<std::string, size_t> producer;  // category -> index in runs
  for (size_t i = 0; i < runs.size(); ++i) {
    for (const auto& c : runs[i].categories) producer[c] = i;
  }
  std::vector<PlannedRun> ordered;
  std::vector<bool> done(runs.size(), false);
  while (ordered.size() < runs.size()) {
    bool progressed = false;
    for (size_t i = 0; i < runs.size(); ++i) {
      if (done[i]) continue;
      bool ready = true;
      for (const auto& dep : runs[i].plugin->reads) {
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
  model.set_property("scope", report.scope);
  const auto runs = plan_runs(model, plugins, options.only, report.unhandled);
  // A plugin sees only this run's results of the categories this run analyzes: a metrics file
  // left in the input directory for one of them (an earlier run's, TraceLens's) is not an input.
  for (const auto& run : runs) {
    for (const auto& category : run.categories) {
      model.remove_document("category_data/" + category + "_metrics.json");
    }
  }
  for (const auto& name : report.unhandled) {
    spdlog::info("no plugin handles category '{}'; skipped", name);
  }

  ExecutionRequest request;
  request.scope = report.scope == "comparative" ? LOUPE_SCOPE_COMPARATIVE : LOUPE_SCOPE_STANDALONE;
  request.compat = options.compat_tracelens ? LOUPE_COMPAT_TRACELENS : LOUPE_COMPAT_NONE;
  request.workload = workload_code(options.workload);
  report.workload = options.workload;
  // Default mode: without --workload, the trace tells (compat keeps TraceLens's "unknown").
  if (options.workload.empty() && !options.compat_tracelens) {
    const WorkloadDetection detected = detect_workload(model);
    if (detected.workload != Workload::Unknown) {
      report.workload = workload_name(detected.workload);
      report.workload_evidence = detected.evidence;
      request.workload = workload_code(report.workload);
      model.set_property("workload_evidence", detected.evidence);
      spdlog::info("workload: {} ({})", report.workload, detected.evidence);
    }
  } else if (!options.workload.empty()) {
    report.workload_evidence = "--workload " + options.workload;
  }

  const FinalizeOptions finalize{options.output_dir, report.scope, options.compat_tracelens};
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
    for (const auto& category : run.categories) {
      ++step;
      spdlog::info("[{}/{}] {}: analyzing {}", step, total, run.plugin->name, category);
      request.plugin = run.plugin;
      request.category = category;
      const ExecutionResult result = options.isolate ? execute_isolated(model, request, limits)
                                                     : execute_in_process(model, request);
      CategoryOutcome done = finalize_category(model, *run.plugin, category, result, finalize);
      done.wall_ms = result.wall_ms;
      if (done.status == "ERROR") {
        spdlog::error("{}: {} ended in ERROR: {}", run.plugin->name, category, done.message);
      } else {
        spdlog::info("{}: {} {} in {:.1f} ms", run.plugin->name, category, done.status,
                     done.wall_ms);
      }
      outcome.categories.push_back(std::move(done));
    }
    report.plugins.push_back(std::move(outcome));
  }
  write_run_record(options.output_dir, model, report, options);
  return report;
}

}  // namespace loupe::core
