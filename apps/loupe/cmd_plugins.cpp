#include <iostream>

#include "cli_common.hpp"
#include "loupe/core/plugin/category_roles.hpp"
#include "loupe/core/plugin/plugin_registry.hpp"
#include "loupe/core/run/plugin_executor.hpp"
#include "loupe/core/run/run_record.hpp"
#include "loupe/core/util/text_escape.hpp"
#include "loupe/json_value.hpp"
#include "plugin_preferences.hpp"

namespace loupe::cli {

namespace fs = std::filesystem;

namespace {

// --json: the search path, every plugin loaded, every file found, the roles and the sandbox.
void print_plugins_json(const std::vector<core::SearchDir>& search, const core::PluginSet& set) {
  Json j = Json::object();
  Json dirs = Json::array();
  for (const auto& d : search) {
    Json dj = Json::object();
    dj["path"] = d.path.string();
    dj["origin"] = core::to_string(d.origin);
    dirs.push_back(std::move(dj));
  }
  j["search_path"] = std::move(dirs);
  Json loaded = Json::array();
  for (const auto& p : set.plugins) {
    Json pj = Json::object();
    pj["name"] = p.name;
    pj["version"] = p.version;
    pj["abi"] = std::to_string(p.abi_major) + "." + std::to_string(p.abi_minor);
    pj["tier"] = core::to_string(p.tier);
    pj["origin"] = core::to_string(p.origin);
    pj["path"] = p.path.string();
    pj["description"] = p.description;
    pj["categories"] = string_array(p.categories);
    pj["reads"] = string_array(p.reads);
    pj["skills"] = string_array(p.skills);
    pj["fallback"] = p.fallback;
    pj["contributes"] = string_array(p.contributes);
    loaded.push_back(std::move(pj));
  }
  j["plugins"] = std::move(loaded);
  Json files = Json::array();
  for (const auto& f : set.found) files.push_back(core::found_plugin_json(f));
  Json displaced = Json::array();
  for (const auto& d : set.displaced) displaced.push_back(core::displacement_json(d));
  j["displaced"] = std::move(displaced);
  j["roles"] = core::category_roles_json(core::category_roles(set));
  j["files"] = std::move(files);
  Json missing = Json::array();
  for (const auto& d : set.missing_dirs) missing.push_back(d.string());
  j["missing_dirs"] = std::move(missing);
  j["sandbox"] = core::sandbox_protections_json(core::sandbox_protections());
  std::cout << core::replace_invalid_utf8(dump_python_json(j, 2, false)) << "\n";
}

// The same as text.
void print_plugins_text(const std::vector<core::SearchDir>& search, const core::PluginSet& set) {
  std::cout << "Search path:\n";
  for (const auto& d : search) {
    std::cout << "  " << core::escape_for_terminal(d.path.string()) << "  ("
              << core::to_string(d.origin) << ")\n";
  }
  std::cout << "Sandbox: " << core::sandbox_protections().summary << "\n";
  std::cout << "Plugins (" << set.plugins.size() << "):\n";
  for (const auto& p : set.plugins) {
    std::cout << "  " << p.name << " " << core::escape_for_terminal(p.version) << "  [ABI "
              << p.abi_major << "." << p.abi_minor << ", " << core::to_string(p.tier)
              << "]  categories:";
    for (const auto& c : p.categories) std::cout << " " << c;
    if (!p.skills.empty()) {
      std::cout << "  skills:";
      for (const auto& sk : p.skills) std::cout << " " << sk;
    }
    if (!p.contributes.empty()) {
      std::cout << "  contributes to:";
      for (const auto& c : p.contributes) std::cout << " " << c;
    }
    if (p.fallback)
      std::cout << "  (fallback for other " << core::to_string(p.tier) << " categories)";
    if (!p.reads.empty()) {
      std::cout << "  reads:";
      for (const auto& r : p.reads) std::cout << " " << r;
    }
    std::cout << "\n    " << core::escape_for_terminal(p.path.string()) << "\n";
    if (!p.description.empty()) {
      std::cout << "    " << core::escape_for_terminal(p.description) << "\n";
    }
  }
  std::cout << "Roles by category:\n";
  for (const auto& role : core::category_roles(set)) {
    std::cout << "  " << role.category << ":";
    if (!role.primary.empty()) std::cout << " primary " << role.primary;
    for (const auto& [what, names] : {std::pair{"contributing", &role.contributing},
                                      {"displaced", &role.displaced},
                                      {"shadowed", &role.shadowed}}) {
      if (names->empty()) continue;
      std::cout << "; " << what;
      for (const auto& n : *names) std::cout << " " << n;
    }
    if (!role.selectors.empty()) {
      std::cout << "  (vendor category:";
      for (const auto& sel : role.selectors) std::cout << " " << core::escape_for_terminal(sel);
      std::cout << ")";
    }
    std::cout << "\n";
  }
  if (!set.displaced.empty()) {
    std::cout << "Displaced (" << set.displaced.size() << "):\n";
    for (const auto& d : set.displaced) {
      std::cout << "  " << d.category << ": primary " << d.preferred << " in place of " << d.plugin
                << " (" << core::escape_for_terminal(d.source) << ")\n";
    }
  }
  for (const auto state : {core::PluginState::Rejected, core::PluginState::Shadowed}) {
    const auto n = set.count(state);
    if (n == 0) continue;
    std::cout << (state == core::PluginState::Rejected ? "Rejected (" : "Shadowed (") << n
              << "):\n";
    for (const auto& f : set.found) {
      if (f.state != state) continue;
      std::cout << "  " << core::escape_for_terminal(f.path.string()) << "\n    "
                << core::escape_for_terminal(f.reason) << "\n";
    }
  }
}

}  // namespace

int run_plugins(const std::vector<std::string>& args) {
  po::options_description visible(
      "Usage: loupe plugins [options]\n\n"
      "Lists every plugin file of the search path and what became of it: loaded, rejected (with\n"
      "the reason) or shadowed (its name or a category belongs to a plugin found earlier), and\n"
      "each category's roles: primary, contributing, displaced (by --prefer or the\n"
      "configuration file). The search path, in precedence order: the bundled plugins next to\n"
      "the loupe executable, then each --plugin-dir, then the configuration file's plugin_dirs,\n"
      "then $LOUPE_PLUGIN_PATH (':'-separated). Each file is opened in a sandboxed child\n"
      "process, so a broken plugin cannot crash or hang this command.\n\n"
      "Exit codes: 0 listed; 2 bad usage, a missing --plugin-dir, a preference that cannot be\n"
      "honoured, a bad configuration file, or (with --strict) a rejected or shadowed file.\n\n"
      "Options");
  std::vector<std::string> plugin_dirs;
  visible.add_options()("help,h", "show this help")(
      "plugin-dir", po::value<std::vector<std::string>>(&plugin_dirs)->composing(),
      "also search this directory (repeatable): after the bundled plugins, before the "
      "configuration file's plugin_dirs and $LOUPE_PLUGIN_PATH")(
      "json", "print JSON instead of text")("strict", "exit 2 when a file is rejected or shadowed");
  add_preference_options(visible);
  add_verbosity_options(visible);
  po::variables_map vm;
  if (!parse_arguments(args, visible, {}, vm, "plugins")) return kExitUsage;
  if (vm.count("help") > 0) {
    std::cout << visible << "\n";
    return kExitOk;
  }
  apply_verbosity(vm);
  PluginConfig config;
  if (const std::string why = load_plugin_config(vm, config); !why.empty()) {
    std::cerr << "loupe plugins: " << why << "\n";
    return kExitUsage;
  }
  std::vector<fs::path> explicit_dirs(plugin_dirs.begin(), plugin_dirs.end());
  explicit_dirs.insert(explicit_dirs.end(), config.plugin_dirs.begin(), config.plugin_dirs.end());
  const auto search = core::plugin_search_path(explicit_dirs);
  core::DiscoveryOptions discovery;
  discovery.preferences = config.preferences;
  discovery.displaced_contribute = config.displaced_contribute;
  const auto set = core::discover_plugins(search, discovery);
  for (const auto& d : set.missing_dirs) {
    std::cerr << "loupe plugins: plugin directory " << d.string() << " does not exist\n";
  }
  for (const auto& e : set.preference_errors) std::cerr << "loupe plugins: " << e << "\n";
  for (const auto& e : set.selector_errors) std::cerr << "loupe plugins: " << e << "\n";
  const bool problems =
      set.count(core::PluginState::Rejected) + set.count(core::PluginState::Shadowed) > 0;
  const int exit_code = !set.missing_dirs.empty() || !set.preference_errors.empty() ||
                                !set.selector_errors.empty() || (problems && vm.count("strict") > 0)
                            ? kExitUsage
                            : kExitOk;

  if (vm.count("json") > 0) {
    print_plugins_json(search, set);
  } else {
    print_plugins_text(search, set);
  }
  return exit_code;
}

}  // namespace loupe::cli
