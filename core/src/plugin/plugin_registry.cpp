#include "loupe/core/plugin/plugin_registry.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>

#include "loupe/core/install_dirs.hpp"
#include "loupe/core/util/name_pattern.hpp"
#include "loupe/core/util/text_escape.hpp"
#include "plugin_probe.hpp"

namespace loupe::core {

namespace fs = std::filesystem;

namespace {

fs::path executable_path() {
  std::error_code ec;
  return fs::read_symlink("/proc/self/exe", ec);
}

bool looks_like_shared_library(const fs::path& path) { return path.extension() == ".so"; }

void add_dir(std::vector<SearchDir>& dirs, const fs::path& path, SearchOrigin origin) {
  for (const auto& d : dirs) {
    if (d.path.lexically_normal() == path.lexically_normal()) return;
  }
  dirs.push_back({path, origin});
}

}  // namespace

const PluginInfo* PluginSet::find_by_category(const std::string& category) const {
  for (const auto& plugin : plugins) {
    if (std::find(plugin.categories.begin(), plugin.categories.end(), category) !=
        plugin.categories.end()) {
      return &plugin;
    }
  }
  return nullptr;
}

const PluginInfo* PluginSet::find_by_skill(const std::string& skill) const {
  if (skill.empty()) return nullptr;
  for (const auto& plugin : plugins) {
    if (std::find(plugin.skills.begin(), plugin.skills.end(), skill) != plugin.skills.end()) {
      return &plugin;
    }
  }
  return nullptr;
}

std::vector<const PluginInfo*> PluginSet::contributors(const std::string& category) const {
  std::vector<const PluginInfo*> out;
  for (const auto& plugin : plugins) {
    if (std::find(plugin.contributes.begin(), plugin.contributes.end(), category) !=
        plugin.contributes.end()) {
      out.push_back(&plugin);
    }
  }
  return out;
}

const PluginInfo* PluginSet::fallback(Tier tier) const {
  for (const auto& plugin : plugins) {
    if (plugin.fallback && plugin.tier == tier) return &plugin;
  }
  return nullptr;
}

std::optional<Route> PluginSet::route(const std::string& category, const std::string& skill,
                                      std::optional<Tier> tier) const {
  if (const auto* p = find_by_category(category)) return Route{p, RouteReason::Category};
  if (const auto* p = find_by_skill(skill)) return Route{p, RouteReason::Skill};
  if (tier) {
    if (const auto* p = fallback(*tier)) return Route{p, RouteReason::Fallback};
  }
  return std::nullopt;
}

std::size_t PluginSet::count(PluginState state) const {
  return static_cast<std::size_t>(std::count_if(
      found.begin(), found.end(), [state](const FoundPlugin& f) { return f.state == state; }));
}

const char* to_string(PluginState state) {
  switch (state) {
    case PluginState::Loaded:
      return "loaded";
    case PluginState::Rejected:
      return "rejected";
    case PluginState::Shadowed:
      return "shadowed";
  }
  return "rejected";
}

const char* to_string(SearchOrigin origin) {
  switch (origin) {
    case SearchOrigin::Bundled:
      return "bundled";
    case SearchOrigin::Explicit:
      return "--plugin-dir";
    case SearchOrigin::Environment:
      return "LOUPE_PLUGIN_PATH";
  }
  return "--plugin-dir";
}

const char* to_string(Tier tier) { return tier == Tier::Compute ? "compute" : "system"; }

const char* to_string(RouteReason reason) {
  switch (reason) {
    case RouteReason::Category:
      return "category";
    case RouteReason::Skill:
      return "skill";
    case RouteReason::Fallback:
      return "fallback";
  }
  return "category";
}

const char* to_string(CategoryRole role) {
  return role == CategoryRole::Contributing ? "contributing" : "primary";
}

std::vector<SearchDir> plugin_search_path(const std::vector<fs::path>& explicit_dirs) {
  std::vector<SearchDir> dirs;
  if (const fs::path exe = executable_path(); !exe.empty()) {
    const fs::path prefix = exe.parent_path().parent_path();
    add_dir(dirs, prefix / kInstallLibDir / "loupe" / "plugins", SearchOrigin::Bundled);
    add_dir(dirs, prefix / "lib" / "loupe" / "plugins", SearchOrigin::Bundled);
  }
  for (const auto& d : explicit_dirs) add_dir(dirs, d, SearchOrigin::Explicit);
  if (const char* env = std::getenv("LOUPE_PLUGIN_PATH"); env != nullptr) {
    std::stringstream stream(env);
    std::string item;
    while (std::getline(stream, item, ':')) {
      if (!item.empty()) add_dir(dirs, item, SearchOrigin::Environment);
    }
  }
  return dirs;
}

namespace {

struct Probed {
  fs::path path;
  SearchOrigin origin = SearchOrigin::Explicit;
  ProbeOutcome probe;
};

// category -> (plugin, source) from the preferences, checked against what was probed. Problems
// go to `errors`.
std::map<std::string, std::pair<std::string, std::string>> resolve_preferences(
    const std::vector<Preference>& preferences, const std::vector<Probed>& probed,
    std::vector<std::string>& errors) {
  std::map<std::string, std::pair<std::string, std::string>> owner;
  for (const auto& pref : preferences) {
    const PluginInfo* info = nullptr;
    for (const auto& p : probed) {
      if (p.probe.info && p.probe.info->name == pref.plugin) {
        info = &*p.probe.info;
        break;
      }
    }
    if (info == nullptr) {
      errors.push_back(pref.source + ": prefers plugin '" + pref.plugin +
                       "', which is not among the plugins found (see `loupe plugins`)");
      continue;
    }
    const std::vector<std::string>& categories =
        pref.categories.empty() ? info->categories : pref.categories;
    if (categories.empty()) {
      errors.push_back(pref.source + ": plugin '" + pref.plugin +
                       "' analyzes no category of its own (it only contributes)");
    }
    for (const auto& category : categories) {
      if (std::find(info->categories.begin(), info->categories.end(), category) ==
          info->categories.end()) {
        errors.push_back(pref.source + ": plugin '" + pref.plugin +
                         "' does not analyze category '" + category + "'");
        continue;
      }
      const auto [it, inserted] = owner.try_emplace(category, pref.plugin, pref.source);
      if (!inserted && it->second.first != pref.plugin) {
        errors.push_back("two preferences for category '" + category + "': plugin '" +
                         it->second.first + "' (" + it->second.second + ") and plugin '" +
                         pref.plugin + "' (" + pref.source + ")");
      }
    }
  }
  return owner;
}

}  // namespace

PluginSet discover_plugins(const std::vector<SearchDir>& dirs, const DiscoveryOptions& options) {
  PluginSet set;
  // Every file is probed first, so a preference can name a plugin found after the one it
  // displaces.
  std::vector<Probed> probed;
  std::set<fs::path> seen;
  for (const auto& dir : dirs) {
    std::error_code ec;
    if (!fs::is_directory(dir.path, ec)) {
      if (dir.origin != SearchOrigin::Bundled) set.missing_dirs.push_back(dir.path);
      continue;
    }
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir.path, ec)) {
      if (looks_like_shared_library(entry.path())) files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    // The directory the bundled plugins are installed in may also hold plugins a package put
    // there: Loupe's own (named loupe_*) come first, so a packaged plugin never takes their
    // categories by sorting before them; --prefer chooses it (docs/plugin-abi.md).
    if (dir.origin == SearchOrigin::Bundled) {
      std::stable_partition(files.begin(), files.end(), [](const fs::path& f) {
        return f.filename().string().rfind("loupe_", 0) == 0;
      });
    }
    for (const auto& file : files) {
      const auto canonical = fs::weakly_canonical(file, ec);
      if (!seen.insert(canonical).second) continue;  // same file through two search dirs
      probed.push_back({file, dir.origin, probe_plugin(file, options.isolate, options.timeout)});
    }
  }
  const auto preferred = resolve_preferences(options.preferences, probed, set.preference_errors);
  // The preferred plugin of a category, or "" when the first-found rule decides.
  auto preferred_for = [&](const std::string& category) -> const std::string* {
    const auto it = preferred.find(category);
    return it == preferred.end() ? nullptr : &it->second.first;
  };

  std::map<std::string, const PluginInfo*> category_owner;
  std::map<std::string, const PluginInfo*> skill_owner;
  std::map<Tier, const PluginInfo*> fallback_owner;
  std::map<std::string, std::string> name_owner;  // plugin name -> its path
  // Loaded plugins are collected first and moved into the set at the end, so the pointers in
  // category_owner stay valid.
  std::vector<std::unique_ptr<PluginInfo>> loaded;
  for (auto& p : probed) {
    FoundPlugin found{p.path, p.origin, PluginState::Rejected, {}, {}, {}, {}};
    if (!p.probe.info) {
      found.reason = std::move(p.probe.reason);
      set.found.push_back(std::move(found));
      continue;
    }
    auto info = std::make_unique<PluginInfo>(std::move(*p.probe.info));
    info->path = p.path;
    info->origin = p.origin;
    found.name = info->name;
    found.categories = info->categories;
    // Categories a preference gives to another plugin are not this one's to claim.
    std::vector<std::string> claimed;
    std::vector<std::string> given_away;
    for (const auto& category : info->categories) {
      const std::string* who = preferred_for(category);
      (who != nullptr && *who != info->name ? given_away : claimed).push_back(category);
    }
    if (const auto it = name_owner.find(info->name); it != name_owner.end()) {
      found.state = PluginState::Shadowed;
      found.reason = "a plugin named '" + info->name + "' was found first at " + it->second;
      found.shadowed_by = info->name;
    } else {
      for (const auto& category : claimed) {
        if (const auto owner = category_owner.find(category); owner != category_owner.end()) {
          found.state = PluginState::Shadowed;
          found.reason = "category '" + category + "' is handled by plugin '" +
                         owner->second->name + "' (" + owner->second->path.string() +
                         "), found first";
          found.shadowed_by = owner->second->name;
          break;
        }
      }
    }
    auto shadow = [&](const std::string& what, const PluginInfo& owner) {
      found.state = PluginState::Shadowed;
      found.reason = what + " is served by plugin '" + owner.name + "' (" + owner.path.string() +
                     "), found first";
      found.shadowed_by = owner.name;
    };
    for (const auto& skill : info->skills) {
      if (found.state == PluginState::Shadowed) break;
      if (const auto owner = skill_owner.find(skill); owner != skill_owner.end()) {
        shadow("skill '" + skill + "'", *owner->second);
      }
    }
    if (found.state != PluginState::Shadowed && info->fallback) {
      if (const auto owner = fallback_owner.find(info->tier); owner != fallback_owner.end()) {
        shadow(std::string("the ") + to_string(info->tier) + "-tier fallback", *owner->second);
      }
    }
    if (found.state != PluginState::Shadowed) {
      found.state = PluginState::Loaded;
      name_owner[info->name] = p.path.string();
      for (const auto& category : given_away) {
        const auto& [who, source] = preferred.at(category);
        set.displaced.push_back(
            {category, info->name, p.path, who, source, options.displaced_contribute});
        if (options.displaced_contribute) info->contributes.push_back(category);
      }
      info->categories = std::move(claimed);
      for (const auto& category : info->categories) category_owner[category] = info.get();
      for (const auto& skill : info->skills) skill_owner[skill] = info.get();
      if (info->fallback) fallback_owner[info->tier] = info.get();
      loaded.push_back(std::move(info));
    }
    set.found.push_back(std::move(found));
  }
  // A preferred plugin that was not loaded (its name or another of its categories was taken
  // first) cannot be honoured.
  for (const auto& [category, who] : preferred) {
    if (name_owner.count(who.first) != 0) continue;
    std::string why;
    for (const auto& f : set.found) {
      if (f.name == who.first && !f.reason.empty()) why = f.reason;
    }
    set.preference_errors.push_back(who.second + ": preferred plugin '" + who.first +
                                    "' cannot be loaded for category '" + category + "'" +
                                    (why.empty() ? std::string() : ": " + why));
  }
  for (auto& info : loaded) set.plugins.push_back(std::move(*info));
  set.selector_errors = check_selectors(set.plugins);
  return set;
}

std::vector<std::string> check_selectors(const std::vector<PluginInfo>& plugins) {
  std::vector<std::string> errors;
  for (const auto& plugin : plugins) {
    for (std::size_t i = 0; i < plugin.selectors.size(); ++i) {
      const CategorySelector& sel = plugin.selectors[i];
      const std::string where = plugin.path.string() + ": plugin '" + plugin.name + "', selector " +
                                std::to_string(i) + " (category '" + sel.category + "')";
      if (std::find(plugin.categories.begin(), plugin.categories.end(), sel.category) ==
          plugin.categories.end()) {
        errors.push_back(where +
                         ": the category is not one the plugin analyzes (its descriptor's "
                         "categories), or a preference gave it to another plugin");
        continue;
      }
      if (sel.kernel_pattern.empty() && sel.op_pattern.empty()) {
        errors.push_back(where + ": neither a kernel_pattern nor an op_pattern");
        continue;
      }
      for (const auto& [field, text] :
           {std::pair{"kernel_pattern", &sel.kernel_pattern}, {"op_pattern", &sel.op_pattern}}) {
        if (text->empty()) continue;
        std::string why;
        (void)NamePattern::compile(*text, why);
        if (!why.empty()) {
          errors.push_back(where + ": " + field + " '" + escape_for_terminal(text->substr(0, 80)) +
                           (text->size() > 80 ? "...'" : "'") + " does not compile: " + why);
        }
      }
    }
  }
  return errors;
}

PluginSet discover_plugins(const std::vector<fs::path>& dirs, const DiscoveryOptions& options) {
  std::vector<SearchDir> search;
  for (const auto& d : dirs) search.push_back({d, SearchOrigin::Explicit});
  return discover_plugins(search, options);
}

}  // namespace loupe::core
