#include "loupe/core/model/model.hpp"

#include "loupe/core/util/json_guards.hpp"

#include <algorithm>
#include <stdexcept>

#include <rapidjson/error/en.h>

namespace loupe::core {

namespace {
void insert_sorted(std::vector<std::string>& names, const std::string& name) {
  const auto it = std::lower_bound(names.begin(), names.end(), name);
  if (it == names.end() || *it != name) names.insert(it, name);
}
}  // namespace

void Model::set_document(const std::string& name, std::shared_ptr<const rapidjson::Document> doc) {
  documents_[name] = std::move(doc);
  load_errors_.erase(name);
  insert_sorted(document_names_, name);
}

void Model::remove_document(const std::string& name) {
  documents_.erase(name);
  load_errors_.erase(name);
  properties_.erase("load_error:" + name);
  const auto it = std::lower_bound(document_names_.begin(), document_names_.end(), name);
  if (it != document_names_.end() && *it == name) document_names_.erase(it);
}

void Model::set_table(const std::string& name, std::shared_ptr<const CsvTable> table) {
  tables_[name] = std::move(table);
  load_errors_.erase(name);
  insert_sorted(table_names_, name);
}

void Model::set_property(const std::string& key, std::string value) {
  properties_[key] = std::move(value);
}

void Model::set_load_error(const std::string& name, std::string message) {
  properties_["load_error:" + name] = message;
  load_errors_[name] = std::move(message);
}

const rapidjson::Value* Model::document(std::string_view name) const {
  const auto it = documents_.find(name);
  return it == documents_.end() ? nullptr : it->second.get();
}

const CsvTable* Model::table(std::string_view name) const {
  const auto it = tables_.find(name);
  return it == tables_.end() ? nullptr : it->second.get();
}

const std::string* Model::property(std::string_view key) const {
  const auto it = properties_.find(key);
  return it == properties_.end() ? nullptr : &it->second;
}

std::shared_ptr<const rapidjson::Document> parse_json_document(std::string_view text) {
  auto doc = std::make_shared<rapidjson::Document>();
  if (const auto error = parse_json_exact(*doc, text)) {
    if (error->too_deep) throw std::runtime_error(error->reason);
    throw std::runtime_error("invalid JSON at byte " + std::to_string(error->offset) + ": " +
                             error->reason);
  }
  return doc;
}

}  // namespace loupe::core
