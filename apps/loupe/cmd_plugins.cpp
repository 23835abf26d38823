#include <iostream>

#include "cli_common.hpp"
#include "loupe/core/plugin_registry.hpp"
#include "loupe/json_value.hpp"

namespace loupe::cli {

namespace fs = std::filesystem;

int run_plugins(const std::vector<std::string>& args) {
  po::options_description visible(
      "Usage: loupe plugins [options]\n\n"
      "Lists the analyzer plugins found in the search path (--plugin-dir, $LOUPE_PLUGIN_PATH,\n"
      "<loupe>/../lib/loupe/plugins) and every file that was rejected, with the reason.\n\n"
      "Options");
  std::vector<std::string> plugin_dirs;
  visible.add_options()("help,h", "show this help")(
      "plugin-dir", po::value<std::vector<std::string>>(&plugin_dirs)->composing(),
      "search this directory first (repeatable)")("json", "print JSON instead of text");
  add_verbosity_options(visible);
  po::variables_map vm;
  if (!parse_arguments(args, visible, {}, vm, "plugins")) return kExitUsage;
  if (vm.count("help") > 0) {
    std::cout << visible << "\n";
    return kExitOk;
  }
  apply_verbosity(vm);
  const std::vector<fs::path> explicit_dirs(plugin_dirs.begin(), plugin_dirs.end());
  const auto search = core::plugin_search_path(explicit_dirs);
  const auto set = core::discover_plugins(search);

  if (vm.count("json") > 0) {
    Json j = Json::object();
    Json dirs = Json::array();
    for (const auto& d : search) dirs.push_back(d.string());
    j["search_path"] = std::move(dirs);
    Json loaded = Json::array();
    for (const auto& p : set.plugins) {
      Json pj = Json::object();
      pj["name"] = p.name;
      pj["version"] = p.version;
      pj["abi"] = std::to_string(p.abi_major) + "." + std::to_string(p.abi_minor);
      pj["tier"] = core::tier_name(p.tier);
      pj["path"] = p.path.string();
      pj["description"] = p.description;
      Json cats = Json::array();
      for (const auto& c : p.categories) cats.push_back(c);
      pj["categories"] = std::move(cats);
      Json reads = Json::array();
      for (const auto& r : p.reads) reads.push_back(r);
      pj["reads"] = std::move(reads);
      loaded.push_back(std::move(pj));
    }
    j["plugins"] = std::move(loaded);
    Json rejected = Json::array();
    for (const auto& r : set.rejected) {
      Json rj = Json::object();
      rj["path"] = r.path.string();
      rj["reason"] = r.reason;
      rejected.push_back(std::move(rj));
    }
    j["rejected"] = std::move(rejected);
    std::cout << dump_python_json(j, 2, false) << "\n";
    return kExitOk;
  }

  std::cout << "Search path:\n";
  for (const auto& d : search) std::cout << "  " << d.string() << "\n";
  std::cout << "Plugins (" << set.plugins.size() << "):\n";
  for (const auto& p : set.plugins) {
    std::cout << "  " << p.name << " " << p.version << "  [ABI " << p.abi_major << "."
              << p.abi_minor << ", " << core::tier_name(p.tier) << "]  categories:";
    for (const auto& c : p.categories) std::cout << " " << c;
    if (!p.reads.empty()) {
      std::cout << "  reads:";
      for (const auto& r : p.reads) std::cout << " " << r;
    }
    std::cout << "\n    " << p.path.string() << "\n";
    if (!p.description.empty()) std::cout << "    " << p.description << "\n";
  }
  if (!set.rejected.empty()) {
    std::cout << "Rejected (" << set.rejected.size() << "):\n";
    for (const auto& r : set.rejected) {
      std::cout << "  " << r.path.string() << "\n    " << r.reason << "\n";
    }
  }
  return kExitOk;
}

}  // namespace loupe::cli
