#include "loupe/core/plugin_registry.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>

#include <boost/dll/runtime_symbol_info.hpp>
#include <boost/dll/shared_library.hpp>

#include "loupe/core/host_services.hpp"

namespace loupe::core {

namespace fs = std::filesystem;

const LoadedPlugin* PluginSet::find_by_category(const std::string& category) const {
  for (const auto& plugin : plugins) {
    if (std::find(plugin.categories.begin(), plugin.categories.end(), category) !=
        plugin.categories.end()) {
      return &plugin;
    }
  }
  return nullptr;
}

std::string tier_name(int32_t tier) {
  switch (tier) {
    case LOUPE_TIER_SYSTEM:
      return "system";
    case LOUPE_TIER_COMPUTE:
      return "compute";
    default:
      return "unknown(" + std::to_string(tier) + ")";
  }
}

std::vector<fs::path> plugin_search_path(const std::vector<fs::path>& explicit_dirs) {
  std::vector<fs::path> dirs = explicit_dirs;
  if (const char* env = std::getenv("LOUPE_PLUGIN_PATH"); env != nullptr) {
    std::stringstream stream(env);
    std::string item;
    while (std::getline(stream, item, ':')) {
      if (!item.empty()) dirs.emplace_back(item);
    }
  }
  boost::dll::fs::error_code ec;
  const auto exe = boost::dll::program_location(ec);
  if (!ec) {
    dirs.push_back(fs::path(exe.string()).parent_path().parent_path() / "lib" / "loupe" /
                   "plugins");
  }
  return dirs;
}

namespace {

bool looks_like_shared_library(const fs::path& path) {
  const auto ext = path.extension().string();
  return ext == ".so" || ext == ".dylib" || ext == ".dll";
}

std::vector<std::string> string_list(const char* const* items, size_t count, bool& ok) {
  std::vector<std::string> out;
  if (count > 0 && items == nullptr) {
    ok = false;
    return out;
  }
  for (size_t i = 0; i < count; ++i) {
    if (items[i] == nullptr || items[i][0] == '\0') {
      ok = false;
      return out;
    }
    out.emplace_back(items[i]);
  }
  return out;
}

// Loads one file; returns the reason it was rejected, or an empty string on success.
std::string load_one(const fs::path& path, LoadedPlugin& out) {
  auto library = std::make_shared<boost::dll::shared_library>();
  boost::dll::fs::error_code ec;
  library->load(boost::dll::fs::path(path.string()),
                boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local, ec);
  if (ec || !library->is_loaded()) {
    return "not a loadable shared library (" + ec.message() + ")";
  }
  if (!library->has(LOUPE_PLUGIN_ENTRY_SYMBOL)) {
    return std::string("no entry symbol '") + LOUPE_PLUGIN_ENTRY_SYMBOL + "'";
  }
  const auto entry = library->get<const loupe_plugin_descriptor*(const loupe_host_info*)>(
      LOUPE_PLUGIN_ENTRY_SYMBOL);
  const loupe_plugin_descriptor* d = entry(&host_info());
  if (d == nullptr) return "entry point returned NULL (the plugin refused this host)";
  if (d->struct_size < offsetof(loupe_plugin_descriptor, analyze) + sizeof(d->analyze)) {
    return "descriptor too small (" + std::to_string(d->struct_size) + " bytes)";
  }
  if (d->abi_major != LOUPE_ABI_MAJOR) {
    return "ABI major " + std::to_string(d->abi_major) + " does not match host ABI major " +
           std::to_string(LOUPE_ABI_MAJOR);
  }
  if (d->required_host_minor > LOUPE_ABI_MINOR) {
    return "needs host services of ABI 1." + std::to_string(d->required_host_minor) +
           " but this host provides 1." + std::to_string(LOUPE_ABI_MINOR);
  }
  if (d->name == nullptr || d->name[0] == '\0') return "descriptor has no name";
  if (d->analyze == nullptr) return "descriptor has no analyze function";
  if (d->tier != LOUPE_TIER_SYSTEM && d->tier != LOUPE_TIER_COMPUTE) {
    return "descriptor has an unknown tier " + std::to_string(d->tier);
  }
  bool ok = true;
  out.categories = string_list(d->categories, d->category_count, ok);
  out.reads = string_list(d->reads, d->read_count, ok);
  if (!ok) return "descriptor has a NULL or empty category name";
  if (out.categories.empty()) return "descriptor declares no category";

  out.path = path;
  out.library = std::move(library);
  out.descriptor = d;
  out.name = d->name;
  out.version = d->version == nullptr ? "" : d->version;
  out.description = d->description == nullptr ? "" : d->description;
  out.tier = d->tier;
  out.abi_major = d->abi_major;
  out.abi_minor = d->abi_minor;
  return {};
}

}  // namespace

PluginSet discover_plugins(const std::vector<fs::path>& dirs) {
  PluginSet set;
  std::map<std::string, fs::path> claimed;  // category -> plugin path
  std::set<std::string> names;
  std::set<fs::path> seen;
  for (const auto& dir : dirs) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) continue;
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
      if (looks_like_shared_library(entry.path())) files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    for (const auto& file : files) {
      const auto canonical = fs::weakly_canonical(file, ec);
      if (!seen.insert(canonical).second) continue;  // same file through two search dirs
      LoadedPlugin plugin;
      std::string reason = load_one(file, plugin);
      if (reason.empty() && names.count(plugin.name) > 0) {
        reason = "a plugin named '" + plugin.name + "' is already loaded";
      }
      if (reason.empty()) {
        for (const auto& category : plugin.categories) {
          if (const auto it = claimed.find(category); it != claimed.end()) {
            reason = "category '" + category + "' is already claimed by " + it->second.string();
            break;
          }
        }
      }
      if (!reason.empty()) {
        set.rejected.push_back({file, std::move(reason)});
        continue;
      }
      for (const auto& category : plugin.categories) claimed[category] = file;
      names.insert(plugin.name);
      set.plugins.push_back(std::move(plugin));
    }
  }
  return set;
}

}  // namespace loupe::core
