#include "loupe/core/plugin/category_roles.hpp"

#include <algorithm>
#include <map>

namespace loupe::core {

namespace {

void add_unique(std::vector<std::string>& list, const std::string& name) {
  if (std::find(list.begin(), list.end(), name) == list.end()) list.push_back(name);
}

}  // namespace

std::vector<CategoryRoles> category_roles(const PluginSet& plugins) {
  std::map<std::string, CategoryRoles> by_name;
  auto at = [&](const std::string& category) -> CategoryRoles& {
    CategoryRoles& roles = by_name[category];
    roles.category = category;
    return roles;
  };
  for (const auto& plugin : plugins.plugins) {
    for (const auto& c : plugin.categories) at(c).primary = plugin.name;
    for (const auto& c : plugin.contributes) add_unique(at(c).contributing, plugin.name);
    for (const auto& sel : plugin.selectors) {
      std::string text;
      if (!sel.kernel_pattern.empty()) text += "kernel '" + sel.kernel_pattern + "'";
      if (!sel.op_pattern.empty()) {
        text += (text.empty() ? "" : " and ") + std::string("op '") + sel.op_pattern + "'";
      }
      add_unique(at(sel.category).selectors, text);
    }
  }
  for (const auto& d : plugins.displaced) add_unique(at(d.category).displaced, d.plugin);
  for (const auto& f : plugins.found) {
    if (f.state != PluginState::Shadowed) continue;
    for (const auto& c : f.categories) add_unique(at(c).shadowed, f.name);
  }
  std::vector<CategoryRoles> out;
  out.reserve(by_name.size());
  for (auto& [name, roles] : by_name) out.push_back(std::move(roles));
  return out;
}

Json category_roles_json(const std::vector<CategoryRoles>& roles) {
  Json out = Json::object();
  for (const auto& r : roles) {
    Json j = Json::object();
    j["primary"] = r.primary.empty() ? Json() : Json(r.primary);
    j["contributing"] = string_array(r.contributing);
    j["displaced"] = string_array(r.displaced);
    j["shadowed"] = string_array(r.shadowed);
    j["selectors"] = string_array(r.selectors);
    out[r.category] = std::move(j);
  }
  return out;
}

}  // namespace loupe::core
