#include "sdpa_data_table.hpp"

#include <vector>

#include "loupe/compute/findings_builder.hpp"
#include "loupe/compute/json_fields.hpp"
#include "sdpa_attention_facts.hpp"

namespace loupe::sdpa {

namespace {

std::string cell_text(const Json& row, size_t i) {
  const auto& cells = row.as_array();
  return i < cells.size() && cells[i].is_string() ? cells[i].as_string() : std::string();
}

// The operation of a Data row: name (column 0) and time (column 4) as the builder printed them.
const Json* operation_of(const Json& row, const Json& operations, std::vector<bool>& used) {
  if (!operations.is_array()) return nullptr;
  const auto& ops = operations.as_array();
  for (size_t j = 0; j < ops.size(); ++j) {
    if (used[j]) continue;
    const Json& name = compute::field(ops[j], "name");
    if (!name.is_string() || name.as_string() != cell_text(row, 0)) continue;
    if (compute::jnum(compute::field(ops[j], "time_ms")) != cell_text(row, 4)) continue;
    used[j] = true;
    return &ops[j];
  }
  return nullptr;
}

std::vector<std::string> paged_cells(const Json* op) {
  if (op == nullptr) return {kDash, kDash, kDash};
  const AttentionFacts a = attention_facts(*op);
  if (a.type != AttentionType::Paged) return {kDash, kDash, kDash};
  std::string dominant = kDash;
  if (a.dominant_kernel && a.dominant_kernel_percent) {
    std::string name = *a.dominant_kernel;
    if (name.size() > 60) name = name.substr(0, 60) + "...";
    for (auto& c : name) {
      if (c == '|') c = '/';
    }
    dominant = name + " (" + number_text(*a.dominant_kernel_percent) + "%)";
  }
  const Json& profile = compute::field(compute::field(*op, "classification"), "workload_profile");
  const Json& pattern = compute::field(profile, "attention_pattern");
  return {dominant, a.workload_type, pattern.is_string() ? pattern.as_string() : kDash};
}

}  // namespace

void add_paged_attention_columns(findings::Document& doc, const Json& metrics) {
  const Json& operations = compute::field(metrics, "operations");
  std::vector<bool> used(operations.is_array() ? operations.size() : 0, false);
  for (auto& detail : doc.details) {
    for (auto& block : detail.data) {
      const Json& type = compute::field(block, "type");
      if (!type.is_string() || type.as_string() != "table") continue;
      std::vector<std::vector<std::string>> extra;
      bool any_paged = false;
      for (const auto& row : block["rows"].as_array()) {
        extra.push_back(paged_cells(operation_of(row, operations, used)));
        any_paged = any_paged || extra.back()[1] != kDash;
      }
      if (!any_paged) continue;
      for (const char* column : {"Dominant kernel", "Workload", "Attention pattern"}) {
        block["columns"].push_back(column);
      }
      auto& rows = block["rows"].as_array();
      for (size_t i = 0; i < rows.size(); ++i) {
        for (auto& c : extra[i]) rows[i].push_back(std::move(c));
      }
    }
  }
}

}  // namespace loupe::sdpa
