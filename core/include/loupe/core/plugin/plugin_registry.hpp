// Finding and vetting analyzer plugins. The host never runs plugin code itself: each file is
// opened and its descriptor read in a sandboxed child (plugin_probe), and only the checked,
// copied description comes back. Analysis children open the library again for each run.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "loupe/plugin.hpp"

namespace loupe::core {

// Where a search directory came from. Earlier origins take precedence (docs/plugin-abi.md,
// "Discovery and precedence").
enum class SearchOrigin { Bundled, Explicit, Environment };

struct SearchDir {
  std::filesystem::path path;
  SearchOrigin origin = SearchOrigin::Explicit;
};

// One vendor category selector of a descriptor (ABI 1.2, docs/plugin-abi.md "Vendor
// categories"), as copied: the patterns are compiled and checked by check_selectors, so a bad one
// stops the run (exit 2) instead of only rejecting the plugin.
struct CategorySelector {
  std::string category;
  std::string kernel_pattern;  // "" : any GPU op
  std::string op_pattern;      // "" : any op
  std::optional<Tier> tier;    // nullopt: the plugin's tier
};

// A plugin whose descriptor passed every check, as the host copied it.
struct PluginInfo {
  std::filesystem::path path;
  SearchOrigin origin = SearchOrigin::Explicit;
  std::string name;
  std::string version;
  std::string description;
  Tier tier = Tier::System;
  std::uint32_t abi_major = 0;
  std::uint32_t abi_minor = 0;
  std::uint32_t required_host_minor = 0;
  std::vector<std::string> categories;
  std::vector<std::string> reads;
  std::vector<std::string> skills;  // manifest skills it serves (ABI 1.1)
  bool fallback = false;            // serves its tier's categories that nobody claims (ABI 1.1)
  std::vector<std::string> contributes;     // categories it adds findings to (ABI 1.2)
  std::vector<CategorySelector> selectors;  // vendor categories it selects from a trace (ABI 1.2)
};

enum class PluginState {
  Loaded,    // will run
  Rejected,  // could not be used (see reason)
  Shadowed,  // valid, but its name, a category, a skill or the fallback role belongs to a
             // plugin found earlier
};

// Why a category went to the plugin that analyzes it (docs/plugin-abi.md, "Routing").
enum class RouteReason {
  Category,  // the plugin names the category
  Skill,     // the manifest gives the category a skill the plugin declares
  Fallback,  // nobody else claims it; the plugin is its tier's fallback
};

struct Route {
  const PluginInfo* plugin = nullptr;
  RouteReason reason = RouteReason::Category;
};

// What a plugin's run of one category is (docs/plugin-abi.md, "Contributing analyzers").
enum class CategoryRole {
  Primary,       // writes <cat>_metrics.json and <cat>_findings.md
  Contributing,  // adds <cat>.<plugin>_metrics.json and <cat>.<plugin>_findings.md beside them
};

// One file of the search path and what became of it.
struct FoundPlugin {
  std::filesystem::path path;
  SearchOrigin origin = SearchOrigin::Explicit;
  PluginState state = PluginState::Rejected;
  std::string name;                     // when the descriptor could be read
  std::string reason;                   // for Rejected and Shadowed
  std::string shadowed_by;              // for Shadowed: the plugin that keeps the name/category
  std::vector<std::string> categories;  // what its descriptor names (when it could be read)
};

// A user's choice of primary analyzer (docs/plugin-abi.md, "Choosing the primary"):
// `--prefer PLUGIN[:CATEGORY,...]` or an entry of the configuration file.
struct Preference {
  std::string plugin;
  std::vector<std::string> categories;  // empty: every category the plugin names
  std::string source;                   // "--prefer" or the configuration file's path
};

// A category taken from the plugin found first by a preference for a later one.
struct Displacement {
  std::string category;
  std::string plugin;  // the displaced plugin (keeps its other categories)
  std::filesystem::path path;
  std::string preferred;     // the plugin that analyzes the category instead
  std::string source;        // where the preference came from
  bool contributes = false;  // it runs as a contributor instead (displaced_contribute)
};

struct PluginSet {
  std::vector<PluginInfo> plugins;                  // the Loaded ones, in precedence order
  std::vector<FoundPlugin> found;                   // every file looked at, in search order
  std::vector<std::filesystem::path> missing_dirs;  // explicit or $LOUPE_PLUGIN_PATH dirs absent
  std::vector<Displacement> displaced;              // categories moved by preferences
  // Preferences that cannot be honoured ("<source>: why"): a usage error, before any work.
  std::vector<std::string> preference_errors;
  // Selectors of loaded plugins that cannot be used ("<plugin file>: selector N ...: why"): a
  // usage error, before any work (check_selectors).
  std::vector<std::string> selector_errors;

  // The plugin that names a category, or nullptr.
  const PluginInfo* find_by_category(const std::string& category) const;
  // The plugin that declares a manifest skill, or nullptr.
  const PluginInfo* find_by_skill(const std::string& skill) const;
  // The plugins that contribute to a category (ABI 1.2), in precedence order.
  std::vector<const PluginInfo*> contributors(const std::string& category) const;
  // The fallback plugin of a tier, or nullptr.
  const PluginInfo* fallback(Tier tier) const;
  // Who analyzes a category: by name, then by the manifest skill (empty: none), then the
  // fallback of the manifest tier (nullopt: the tier is unknown, no fallback applies).
  std::optional<Route> route(const std::string& category, const std::string& skill,
                             std::optional<Tier> tier) const;
  std::size_t count(PluginState state) const;
};

struct DiscoveryOptions {
  bool isolate = true;  // probe each file in a sandboxed child (false: in this process)
  std::chrono::milliseconds timeout{std::chrono::seconds(10)};  // per file
  std::vector<Preference> preferences;  // who is primary where the first-found rule would differ
  // A displaced plugin contributes to the categories it lost (docs/configuration.md,
  // "displaced_contribute") instead of leaving them.
  bool displaced_contribute = false;
};

// Directories to search, in precedence order: the bundled plugins next to the executable
// (<exe>/../<libdir>/loupe/plugins, and <exe>/../lib/loupe/plugins), then the explicit ones in
// the order given, then $LOUPE_PLUGIN_PATH (':'-separated).
std::vector<SearchDir> plugin_search_path(const std::vector<std::filesystem::path>& explicit_dirs);

// Probes every shared library (*.so) found directly in the directories, sorted by file name
// within each directory. Never throws and never runs plugin code in this process (unless
// options.isolate is false): a file that is not a plugin, crashes, hangs, or describes itself
// wrongly becomes a Rejected entry with the reason; one whose name or category was taken by an
// earlier plugin becomes Shadowed.
PluginSet discover_plugins(const std::vector<SearchDir>& dirs,
                           const DiscoveryOptions& options = {});
// The same with every directory taken as explicit (tests).
PluginSet discover_plugins(const std::vector<std::filesystem::path>& dirs,
                           const DiscoveryOptions& options = {});

// The selectors of the loaded plugins that cannot be used: a pattern that does not compile
// (name_pattern.hpp), a selector with neither pattern, a category the plugin does not analyze
// itself, an unknown tier, or a vendor category two plugins select. Each entry names the plugin
// file and the selector (its index in the descriptor, from 0).
std::vector<std::string> check_selectors(const std::vector<PluginInfo>& plugins);

const char* to_string(PluginState state);
const char* to_string(SearchOrigin origin);
const char* to_string(Tier tier);
const char* to_string(RouteReason reason);
const char* to_string(CategoryRole role);

}  // namespace loupe::core
