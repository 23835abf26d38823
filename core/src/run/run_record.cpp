#include "loupe/core/run_record.hpp"

#include "loupe/core/atomic_file.hpp"
#include "loupe/core/version.hpp"
#include "loupe/json_value.hpp"

namespace loupe::core {

std::string run_record_json(const Model& model, const AnalyzeReport& report,
                            const AnalyzeOptions& options) {
  Json j = Json::object();
  j["loupe_version"] = kLoupeVersion;
  j["abi"] = std::to_string(LOUPE_ABI_MAJOR) + "." + std::to_string(LOUPE_ABI_MINOR);
  const std::string* input = model.property("input_dir");
  j["input_dir"] = input == nullptr ? "" : *input;
  j["output_dir"] = options.output_dir.string();
  j["scope"] = report.scope;
  j["compat"] = options.compat_tracelens ? "tracelens" : "none";
  j["workload"] = options.workload.empty() ? "unknown" : options.workload;
  j["isolated"] = options.isolate;
  Json plugins = Json::array();
  for (const auto& outcome : report.plugins) {
    const auto& p = *outcome.plugin;
    Json pj = Json::object();
    pj["name"] = p.name;
    pj["path"] = p.path.string();
    pj["version"] = p.version;
    pj["abi"] = std::to_string(p.abi_major) + "." + std::to_string(p.abi_minor);
    pj["tier"] = tier_name(p.tier);
    Json categories = Json::array();
    for (const auto& c : outcome.categories) {
      Json cj = Json::object();
      cj["category"] = c.category;
      cj["status"] = c.status;
      if (!c.message.empty()) cj["message"] = c.message;
      cj["metrics"] = c.metrics_path;
      cj["findings"] = c.findings_path;
      cj["wall_time_ms"] = py::round_half_even(c.wall_ms, 3);
      categories.push_back(std::move(cj));
    }
    pj["categories"] = std::move(categories);
    plugins.push_back(std::move(pj));
  }
  j["plugins"] = std::move(plugins);
  Json unhandled = Json::array();
  for (const auto& u : report.unhandled) unhandled.push_back(u);
  j["unhandled_categories"] = std::move(unhandled);
  j["status"] = report.any_error() ? "ERROR" : "OK";
  return dump_python_json(j, 2, false) + "\n";
}

void write_run_record(const std::filesystem::path& output_dir, const Model& model,
                      const AnalyzeReport& report, const AnalyzeOptions& options) {
  write_file_atomically(output_dir / "loupe_run.json", run_record_json(model, report, options));
}

}  // namespace loupe::core
