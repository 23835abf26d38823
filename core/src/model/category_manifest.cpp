#include "loupe/core/model/category_manifest.hpp"

#include <string_view>

#include "loupe/core/run/plan_error.hpp"
#include "loupe/core/util/safe_name.hpp"

namespace loupe::core {

namespace {

// The entries of a "categories" list (the manifest's, or vendor_categories.json's).
std::vector<ManifestCategory> entries_of(const rapidjson::Value& list, const char* file) {
  std::vector<ManifestCategory> entries;
  rapidjson::SizeType index = 0;
  for (const auto& entry : list.GetArray()) {
    const rapidjson::Value* name = nullptr;
    if (entry.IsObject()) {
      const auto member = entry.FindMember("name");
      if (member != entry.MemberEnd() && member->value.IsString()) name = &member->value;
    }
    if (name == nullptr || !is_safe_name(name->GetString())) {
      throw PlanError(std::string(file) + ": categories[" + std::to_string(index) +
                      "] is not an object with a valid \"name\" (1-64 characters of A-Z a-z "
                      "0-9 _ -)");
    }
    ManifestCategory category{name->GetString(), {}, std::nullopt};
    if (const auto skill = entry.FindMember("skill");
        skill != entry.MemberEnd() && skill->value.IsString()) {
      category.skill = skill->value.GetString();
    }
    if (const auto tier = entry.FindMember("tier");
        tier != entry.MemberEnd() && tier->value.IsString()) {
      const std::string_view text = tier->value.GetString();
      if (text == "system") category.tier = Tier::System;
      if (text == "compute_kernel") category.tier = Tier::Compute;
    }
    entries.push_back(std::move(category));
    ++index;
  }
  return entries;
}

}  // namespace

std::vector<ManifestCategory> manifest_categories(const Model& model) {
  const auto* manifest = model.document(kCategoryManifest);
  if (manifest == nullptr) {
    std::string why = std::string("no ") + kCategoryManifest;
    if (const auto* err = model.property(std::string("load_error:") + kCategoryManifest))
      why = *err;
    throw PlanError(why + "; name the categories to analyze with --only");
  }
  if (!manifest->IsObject()) {
    throw PlanError(std::string(kCategoryManifest) + " is not a JSON object");
  }
  const auto it = manifest->FindMember("categories");
  if (it == manifest->MemberEnd() || !it->value.IsArray()) {
    throw PlanError(std::string(kCategoryManifest) + " has no 'categories' list");
  }
  return entries_of(it->value, kCategoryManifest);
}

std::vector<ManifestCategory> vendor_categories(const Model& model) {
  const auto* doc = model.document(kVendorCategories);
  if (doc == nullptr) return {};
  const auto it = doc->IsObject() ? doc->FindMember("categories") : doc->MemberEnd();
  if (!doc->IsObject() || it == doc->MemberEnd() || !it->value.IsArray()) {
    throw PlanError(std::string(kVendorCategories) + " has no 'categories' list");
  }
  return entries_of(it->value, kVendorCategories);
}

}  // namespace loupe::core
