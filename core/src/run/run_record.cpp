#include "loupe/core/run/run_record.hpp"

#include "loupe/core/model/category_manifest.hpp"
#include "loupe/core/run/plugin_executor.hpp"
#include "loupe/core/util/atomic_file.hpp"
#include "loupe/core/util/json_convert.hpp"
#include "loupe/core/util/text_escape.hpp"
#include "loupe/core/version.hpp"
#include "loupe/json_value.hpp"
#include "loupe/layout.hpp"

namespace loupe::core {

Json found_plugin_json(const FoundPlugin& f) {
  Json j = Json::object();
  j["path"] = f.path.string();
  j["origin"] = to_string(f.origin);
  j["state"] = to_string(f.state);
  if (!f.name.empty()) j["name"] = f.name;
  if (!f.reason.empty()) j["reason"] = f.reason;
  if (!f.shadowed_by.empty()) j["shadowed_by"] = f.shadowed_by;
  return j;
}

Json displacement_json(const Displacement& d) {
  Json j = Json::object();
  j["category"] = d.category;
  j["plugin"] = d.plugin;
  j["path"] = d.path.string();
  j["preferred"] = d.preferred;
  j["source"] = d.source;
  if (d.contributes) j["runs_as"] = "contributing";
  return j;
}

RecordedOutputs run_outputs(const AnalyzeReport& report, const AnalyzeOptions& options) {
  RecordedOutputs out;
  out.prepared = options.prepared_files;
  for (const auto& outcome : report.plugins) {
    for (const auto& c : outcome.categories) {
      if (!c.metrics_path.empty()) out.analysis.push_back(c.metrics_path);
      if (!c.findings_path.empty()) out.analysis.push_back(c.findings_path);
    }
  }
  for (const auto& f : report.report_files) out.analysis.push_back(f);
  out.analysis.emplace_back(layout::kRunRecord);
  return out;
}

std::string run_record_json(const Model& model, const AnalyzeReport& report,
                            const AnalyzeOptions& options) {
  Json j = Json::object();
  j["loupe_version"] = kLoupeVersion;
  j["abi"] = std::to_string(LOUPE_ABI_MAJOR) + "." + std::to_string(LOUPE_ABI_MINOR);
  const std::string* input = model.property("input_dir");
  j["input_dir"] = input == nullptr ? "" : *input;
  j["output_dir"] = options.output_dir.string();
  j["scope"] = to_string(report.scope);
  j["compat"] = options.compat == Compat::TraceLens ? "tracelens" : "none";
  j["workload"] = to_string(report.workload);
  if (!report.workload_evidence.empty()) j["workload_evidence"] = report.workload_evidence;
  // The run's analysis window and the GPU work outside it (docs/report.md, "Recording window").
  if (const auto* window = model.document("trace/recording_window.json")) {
    j["window"] = to_owned_json(*window);
  }
  j["isolated"] = options.isolate;
  if (options.isolate) {
    j["sandbox"] = sandbox_protections_json(sandbox_protections());
  }
  Json plugins = Json::array();
  for (const auto& outcome : report.plugins) {
    const auto& p = *outcome.plugin;
    Json pj = Json::object();
    pj["name"] = p.name;
    pj["path"] = p.path.string();
    pj["version"] = p.version;
    pj["abi"] = std::to_string(p.abi_major) + "." + std::to_string(p.abi_minor);
    pj["tier"] = to_string(p.tier);
    Json categories = Json::array();
    for (const auto& c : outcome.categories) {
      Json cj = Json::object();
      cj["category"] = c.category;
      cj["routed_by"] = to_string(c.routed_by);
      if (c.role == CategoryRole::Contributing) cj["role"] = to_string(c.role);
      cj["status"] = findings::to_string(c.status);
      if (!c.message.empty()) cj["message"] = c.message;
      if (!c.truncated.empty()) cj["truncated"] = c.truncated;
      cj["metrics"] = c.metrics_path;
      cj["findings"] = c.findings_path;
      if (c.status != findings::Status::Error)
        cj["findings_count"] = static_cast<std::int64_t>(c.findings_count);
      cj["wall_time_ms"] = py::round_half_even(c.wall_ms, 3);
      categories.push_back(std::move(cj));
    }
    pj["categories"] = std::move(categories);
    plugins.push_back(std::move(pj));
  }
  j["plugins"] = std::move(plugins);
  if (report.discovery != nullptr) {
    Json found = Json::array();
    for (const auto& f : report.discovery->found) found.push_back(found_plugin_json(f));
    j["plugin_files"] = std::move(found);
    // Categories a preference moved away from the plugin found first (docs/plugin-abi.md).
    if (!report.discovery->displaced.empty()) {
      Json displaced = Json::array();
      for (const auto& d : report.discovery->displaced) displaced.push_back(displacement_json(d));
      j["displaced"] = std::move(displaced);
    }
  }
  Json unhandled = Json::array();
  for (const auto& u : report.unhandled) unhandled.push_back(u);
  j["unhandled_categories"] = std::move(unhandled);
  j["status"] = report.any_error() ? "ERROR" : "OK";
  if (!options.capture_traces.is_null()) j["capture_traces"] = options.capture_traces;
  // What each vendor category's selectors matched (docs/plugin-abi.md, "Vendor categories").
  if (const auto* vendor = model.document(kVendorCategories);
      vendor != nullptr && vendor->IsObject() && vendor->HasMember("categories")) {
    j["vendor_categories"] = to_owned_json((*vendor)["categories"]);
  }
  const RecordedOutputs written = run_outputs(report, options);
  Json outputs = Json::object();
  Json prepared = Json::array();
  for (const auto& f : written.prepared) prepared.push_back(f);
  Json analysis = Json::array();
  for (const auto& f : written.analysis) analysis.push_back(f);
  outputs["prepared"] = std::move(prepared);
  outputs["analysis"] = std::move(analysis);
  j["outputs"] = std::move(outputs);
  // Paths, plugin messages and names from a trace may hold bytes that are not UTF-8.
  return replace_invalid_utf8(dump_python_json(j, 2, false)) + "\n";
}

void write_run_record(const std::filesystem::path& output_dir, const Model& model,
                      const AnalyzeReport& report, const AnalyzeOptions& options) {
  write_file_atomically(output_dir / layout::kRunRecord, run_record_json(model, report, options));
}

}  // namespace loupe::core
