#include <algorithm>

#include "loupe/core/prepare/vendor_categories.hpp"

namespace loupe::core::prepare {

std::vector<VendorSelector> vendor_selectors(const PluginSet& plugins) {
  std::vector<VendorSelector> out;
  for (const auto& plugin : plugins.plugins) {
    for (std::size_t i = 0; i < plugin.selectors.size(); ++i) {
      const CategorySelector& sel = plugin.selectors[i];
      if (std::find(plugin.categories.begin(), plugin.categories.end(), sel.category) ==
          plugin.categories.end()) {
        continue;
      }
      VendorSelector one;
      one.plugin = plugin.name;
      one.plugin_path = plugin.path;
      one.index = i;
      one.category = sel.category;
      one.tier = sel.tier.value_or(plugin.tier);
      std::string kernel_error;
      std::string op_error;
      if (!sel.kernel_pattern.empty()) {
        one.kernel = NamePattern::compile(sel.kernel_pattern, kernel_error);
      }
      if (!sel.op_pattern.empty()) one.op = NamePattern::compile(sel.op_pattern, op_error);
      if (!kernel_error.empty() || !op_error.empty() || (one.kernel.empty() && one.op.empty())) {
        continue;
      }
      out.push_back(std::move(one));
    }
  }
  return out;
}

}  // namespace loupe::core::prepare
