// Vendor categories (docs/plugin-abi.md, "Vendor categories"): the rows of
// unified_perf_summary.csv whose GPU ops or op names match a plugin's selectors, written as
// category_data/<cat>_ops.csv with the compute categories' columns, and
// category_data/vendor_categories.json, the list the runner routes to the plugins with what each
// selector matched (kernels, ops, GPU time; loupe_run.json `vendor_categories`).
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "loupe/core/model/category_manifest.hpp"
#include "loupe/core/plugin/plugin_registry.hpp"
#include "loupe/core/util/name_pattern.hpp"
#include "loupe/vocabulary.hpp"

namespace loupe::core::prepare {

// One selector of a loaded plugin, compiled.
struct VendorSelector {
  std::string plugin;
  std::filesystem::path plugin_path;
  std::size_t index = 0;  // in the plugin's descriptor
  std::string category;
  Tier tier = Tier::Compute;
  NamePattern kernel;  // empty(): any GPU op
  NamePattern op;      // empty(): any op
};

// The selectors of the loaded plugins, compiled, in plugin precedence order. Selectors that
// check_selectors refuses are left out (the CLI stops on those before any work).
std::vector<VendorSelector> vendor_selectors(const PluginSet& plugins);

}  // namespace loupe::core::prepare
