// Finding, loading and vetting analyzer plugins.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "loupe/abi.h"

namespace boost::dll {
class shared_library;
}

namespace loupe::core {

// A plugin that passed every check. Keeps its library loaded while any copy is alive.
struct LoadedPlugin {
  std::filesystem::path path;
  std::shared_ptr<boost::dll::shared_library> library;
  const loupe_plugin_descriptor* descriptor = nullptr;  // owned by the library
  std::string name;
  std::string version;
  std::string description;
  int32_t tier = LOUPE_TIER_SYSTEM;
  std::uint32_t abi_major = 0;
  std::uint32_t abi_minor = 0;
  std::vector<std::string> categories;
  std::vector<std::string> reads;
};

struct RejectedPlugin {
  std::filesystem::path path;
  std::string reason;
};

struct PluginSet {
  std::vector<LoadedPlugin> plugins;  // in discovery order
  std::vector<RejectedPlugin> rejected;

  // The plugin that handles a category, or nullptr.
  const LoadedPlugin* find_by_category(const std::string& category) const;
};

// Directories to search, in order: the explicit ones, then $LOUPE_PLUGIN_PATH (':'-separated),
// then <directory of the running executable>/../lib/loupe/plugins.
std::vector<std::filesystem::path> plugin_search_path(
    const std::vector<std::filesystem::path>& explicit_dirs);

// Loads every shared library (*.so, *.dylib, *.dll) found directly in the directories, sorted
// by file name within each directory. Never throws for a bad plugin: each problem becomes a
// RejectedPlugin with a reason (not a shared library, no entry symbol, entry returned NULL,
// ABI major mismatch, needs newer host services, malformed descriptor, category already
// claimed by another plugin, same plugin name loaded twice).
PluginSet discover_plugins(const std::vector<std::filesystem::path>& dirs);

std::string tier_name(int32_t tier);

}  // namespace loupe::core
