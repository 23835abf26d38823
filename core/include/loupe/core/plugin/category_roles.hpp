// Each category's analyzers and their roles, as `loupe plugins` shows them (docs/plugin-abi.md,
// "Contributing analyzers", "Choosing the primary", "Vendor categories"): the primary, the
// contributing plugins, the plugins a preference displaced, and the shadowed files that name it.
#pragma once

#include <string>
#include <vector>

#include "loupe/core/plugin/plugin_registry.hpp"
#include "loupe/json_value.hpp"

namespace loupe::core {

struct CategoryRoles {
  std::string category;
  std::string primary;  // "" when no loaded plugin names it (it may still be contributed to)
  std::vector<std::string> contributing;
  std::vector<std::string> displaced;
  std::vector<std::string> shadowed;
  std::vector<std::string> selectors;  // a vendor category's selectors, e.g. "kernel 'Cijk_*'"
};

// Every category a plugin file names, declares a contribution to, or lost to a preference, sorted
// by name. Categories a plugin serves by skill or as fallback depend on the analysis directory
// and are not listed.
std::vector<CategoryRoles> category_roles(const PluginSet& plugins);

// {category: {"primary", "contributing", "displaced", "shadowed", "selectors"}}.
Json category_roles_json(const std::vector<CategoryRoles>& roles);

}  // namespace loupe::core
