#include "analyze_options.hpp"

#include <iostream>
#include <sstream>

#include <spdlog/spdlog.h>

#include "loupe/core/prepare/arch_selection.hpp"
#include "plugin_preferences.hpp"

namespace loupe::cli {

namespace fs = std::filesystem;

namespace {

// A repeatable option's values (empty when not given).
std::vector<std::string> strings(const po::variables_map& vm, const char* name) {
  return vm.count(name) > 0 ? vm[name].as<std::vector<std::string>>() : std::vector<std::string>{};
}

std::vector<std::string> split_categories(const std::vector<std::string>& values) {
  std::vector<std::string> out;
  for (const auto& value : values) {
    std::stringstream stream(value);
    std::string item;
    while (std::getline(stream, item, ',')) {
      if (!item.empty()) out.push_back(item);
    }
  }
  return out;
}

// Warns about each rejected or shadowed plugin file; false when --strict makes that fatal.
bool report_plugin_problems(const core::PluginSet& plugins, bool strict) {
  bool any = false;
  for (const auto& f : plugins.found) {
    if (f.state == core::PluginState::Loaded) continue;
    any = true;
    if (strict) {
      std::cerr << "loupe analyze: plugin " << f.path.string() << " " << core::to_string(f.state)
                << ": " << f.reason << "\n";
    } else {
      spdlog::warn("plugin {} {}: {}", f.path.string(), core::to_string(f.state), f.reason);
    }
  }
  if (any && strict) {
    std::cerr << "loupe analyze: --strict: stopping before any work (remove or fix the files "
                 "above)\n";
    return false;
  }
  return true;
}

}  // namespace

// The analysis options from the command line; nullopt after saying what is wrong.
std::optional<core::AnalyzeOptions> analyze_options(const po::variables_map& vm) {
  core::AnalyzeOptions options;
  options.output_dir = vm.count("output") > 0 ? fs::path(vm["output"].as<std::string>())
                                              : fs::path(vm["dir"].as<std::string>());
  if (vm.count("scope") > 0) {
    options.scope = scope_from_string(vm["scope"].as<std::string>());
    if (!options.scope) {
      std::cerr << "loupe analyze: --scope must be standalone or comparative\n";
      return std::nullopt;
    }
  }
  if (vm.count("compat") > 0) {
    if (vm["compat"].as<std::string>() != "tracelens") {
      std::cerr << "loupe analyze: --compat accepts only 'tracelens'\n";
      return std::nullopt;
    }
    options.compat = Compat::TraceLens;
  }
  if (vm.count("workload") > 0) {
    const std::string workload = vm["workload"].as<std::string>();
    if (workload == "training") options.workload = Workload::Training;
    if (workload == "inference") options.workload = Workload::Inference;
    if (!options.workload) {
      std::cerr << "loupe analyze: --workload must be training or inference\n";
      return std::nullopt;
    }
  }
  options.only = split_categories(strings(vm, "only"));
  options.isolate = vm.count("no-isolate") == 0;
  const double timeout_s = vm["plugin-timeout"].as<double>();
  if (!(timeout_s > 0) || timeout_s > 86400.0) {
    std::cerr << "loupe analyze: --plugin-timeout must be between 0 and 86400 seconds\n";
    return std::nullopt;
  }
  options.timeout = std::chrono::milliseconds(static_cast<long long>(timeout_s * 1000.0));
  options.memory_mb = vm["plugin-memory"].as<std::uint64_t>();
  if (options.memory_mb > (std::uint64_t{1} << 24)) {
    std::cerr << "loupe analyze: --plugin-memory is in MB; " << options.memory_mb
              << " is more than any machine has\n";
    return std::nullopt;
  }
  return options;
}

bool check_platform_options(const po::variables_map& vm) {
  for (const auto& [platform, arch] : {std::pair{"platform", "arch"}, {"platform2", "arch2"}}) {
    if (vm.count(platform) == 0 && vm.count(arch) == 0) continue;
    try {
      core::prepare::select_arch(
          vm.count(arch) > 0 ? std::optional<fs::path>(vm[arch].as<std::string>()) : std::nullopt,
          vm.count(platform) > 0 ? std::optional<std::string>(vm[platform].as<std::string>())
                                 : std::nullopt,
          {});
    } catch (const std::exception& e) {
      std::cerr << "loupe analyze: "
                << (vm.count(platform) > 0 ? "--" + std::string(platform) + ": " : std::string())
                << e.what() << "\n";
      return false;
    }
  }
  return true;
}

// The plugins for this run: discovered, preferences applied, problems reported; nullopt after
// saying why the run cannot start.
std::optional<core::PluginSet> discover(const po::variables_map& vm,
                                        const core::AnalyzeOptions& options) {
  PluginConfig config;
  if (const std::string why = load_plugin_config(vm, config); !why.empty()) {
    std::cerr << "loupe analyze: " << why << "\n";
    return std::nullopt;
  }
  const std::vector<std::string> given = strings(vm, "plugin-dir");
  std::vector<fs::path> explicit_dirs(given.begin(), given.end());
  explicit_dirs.insert(explicit_dirs.end(), config.plugin_dirs.begin(), config.plugin_dirs.end());
  core::DiscoveryOptions discovery;
  discovery.isolate = options.isolate;
  discovery.timeout = std::min(options.timeout, discovery.timeout);
  discovery.preferences = config.preferences;
  discovery.displaced_contribute = config.displaced_contribute;
  auto plugins = core::discover_plugins(core::plugin_search_path(explicit_dirs), discovery);
  if (!plugins.missing_dirs.empty()) {
    for (const auto& d : plugins.missing_dirs) {
      std::cerr << "loupe analyze: plugin directory " << d.string() << " does not exist\n";
    }
    return std::nullopt;
  }
  if (!plugins.preference_errors.empty() || !plugins.selector_errors.empty()) {
    for (const auto& e : plugins.preference_errors) std::cerr << "loupe analyze: " << e << "\n";
    for (const auto& e : plugins.selector_errors) std::cerr << "loupe analyze: " << e << "\n";
    std::cerr << "loupe analyze: stopped before any work\n";
    return std::nullopt;
  }
  for (const auto& d : plugins.displaced) {
    spdlog::info("{}: analyzed by plugin '{}' instead of '{}' ({})", d.category, d.preferred,
                 d.plugin, d.source);
  }
  if (!report_plugin_problems(plugins, vm.count("strict") > 0)) return std::nullopt;
  if (plugins.plugins.empty()) {
    std::cerr << "loupe analyze: no plugins found (see `loupe plugins`)\n";
    return std::nullopt;
  }
  // Early check before any work; routing by the manifest's skill is decided once the inputs
  // are loaded (plan_runs), so with a fallback plugin every name may still find its analyzer.
  const bool has_fallback =
      plugins.fallback(Tier::Compute) != nullptr || plugins.fallback(Tier::System) != nullptr;
  for (const auto& name : options.only) {
    if (plugins.find_by_category(name) == nullptr && !has_fallback) {
      std::cerr << "loupe analyze: --only " << name
                << ": no loaded plugin handles this category (see `loupe plugins`)\n";
      return std::nullopt;
    }
  }
  return plugins;
}

core::TraceInputs trace_inputs(const po::variables_map& vm) {
  core::TraceInputs inputs;
  if (vm.count("trace") > 0) inputs.trace = vm["trace"].as<std::string>();
  if (vm.count("trace2") > 0) inputs.trace2 = fs::path(vm["trace2"].as<std::string>());
  if (vm.count("platform") > 0) inputs.platform = vm["platform"].as<std::string>();
  if (vm.count("arch") > 0) inputs.arch_file = fs::path(vm["arch"].as<std::string>());
  if (vm.count("platform2") > 0) inputs.platform2 = vm["platform2"].as<std::string>();
  if (vm.count("arch2") > 0) inputs.arch_file2 = fs::path(vm["arch2"].as<std::string>());
  for (const auto& capture : strings(vm, "capture-trace"))
    inputs.capture_traces.emplace_back(capture);
  return inputs;
}

core::SessionOptions session_options(const po::variables_map& vm, core::AnalyzeOptions analyze) {
  core::SessionOptions options;
  options.analyze = std::move(analyze);
  options.quiet = vm.count("quiet") > 0;
  options.load_progress = [quiet = options.quiet](const fs::path&, std::uint64_t file_size) {
    return trace_load_progress("analyze", file_size, quiet);
  };
  return options;
}

}  // namespace loupe::cli
