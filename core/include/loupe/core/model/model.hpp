// The host's model: every input of an analysis directory, parsed once and shared read-only with
// all plugins (through the host services of abi.h). JSON documents and CSV tables are looked up
// by their path relative to the analysis directory.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <rapidjson/document.h>

#include "loupe/core/model/csv_table.hpp"

namespace loupe::core {

class Model {
 public:
  // Adds or replaces a document (e.g. a plugin's metrics after it ran).
  void set_document(const std::string& name, std::shared_ptr<const rapidjson::Document> doc);
  // Forgets a document and its load error (e.g. a metrics file this run is about to produce).
  void remove_document(const std::string& name);
  void set_table(const std::string& name, std::shared_ptr<const CsvTable> table);
  void set_property(const std::string& key, std::string value);
  // Records why an input could not be loaded; exposed as property "load_error:<name>".
  void set_load_error(const std::string& name, std::string message);

  const rapidjson::Value* document(std::string_view name) const;
  const CsvTable* table(std::string_view name) const;
  const std::string* property(std::string_view key) const;

  const std::vector<std::string>& document_names() const { return document_names_; }
  const std::vector<std::string>& table_names() const { return table_names_; }
  const std::map<std::string, std::string, std::less<>>& load_errors() const {
    return load_errors_;
  }

 private:
  std::map<std::string, std::shared_ptr<const rapidjson::Document>, std::less<>> documents_;
  std::map<std::string, std::shared_ptr<const CsvTable>, std::less<>> tables_;
  std::map<std::string, std::string, std::less<>> properties_;
  std::map<std::string, std::string, std::less<>> load_errors_;
  std::vector<std::string> document_names_;  // sorted on insertion for stable enumeration
  std::vector<std::string> table_names_;
};

// Parses JSON text like Python's json module does (NaN/Infinity accepted, full precision).
// Throws std::runtime_error with the byte offset and reason on malformed input.
std::shared_ptr<const rapidjson::Document> parse_json_document(std::string_view text);

}  // namespace loupe::core
