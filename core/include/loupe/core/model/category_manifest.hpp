// Reading category_data/category_manifest.json, the list of categories an analysis directory
// holds; how its entries route to plugins is in docs/plugin-abi.md, "Routing".
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "loupe/core/model/model.hpp"
#include "loupe/layout.hpp"
#include "loupe/vocabulary.hpp"

namespace loupe::core {

inline constexpr const char* kCategoryManifest = layout::kManifest;
// Loupe's list of vendor categories beside the manifest (docs/plugin-abi.md, "Vendor
// categories"), written by `loupe analyze --trace` when a plugin declares selectors.
inline constexpr const char* kVendorCategories = "category_data/vendor_categories.json";

// One entry of category_manifest.json's "categories".
struct ManifestCategory {
  std::string name;
  std::string skill;         // "" when the entry has none
  std::optional<Tier> tier;  // "system" / "compute_kernel"; nullopt for anything else
};

// The categories the manifest lists, in order. Throws PlanError (plan_error.hpp), naming the
// problem, for a missing manifest or one of the wrong shape.
std::vector<ManifestCategory> manifest_categories(const Model& model);

// The vendor categories of category_data/vendor_categories.json, in order; empty when the file
// is absent. Throws PlanError for a file of the wrong shape.
std::vector<ManifestCategory> vendor_categories(const Model& model);

}  // namespace loupe::core
