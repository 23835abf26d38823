#include "generic_prose.hpp"

#include "generic_op_kind.hpp"
#include "loupe/compute/finding_facts.hpp"
#include "loupe/compute/json_fields.hpp"

namespace loupe::generic {

namespace {

constexpr const char* kDash = "\xE2\x80\x94";

}  // namespace

std::string GenericProse::document_title(const std::string& category) const {
  return "Uncategorized Operations Findings: " + category;
}

std::vector<std::string> GenericProse::overview(const Json& metrics) const {
  auto items = FindingsProse::overview(metrics);
  const Json* block = metrics.find("category_specific");
  if (block == nullptr || !block->is_object()) return items;
  items.push_back("Sub-categories (heuristic, from op names): " +
                  compute::jnum(compute::field(block, "graph_count")) + " graph, " +
                  compute::jnum(compute::field(block, "miscellaneous_count")) + " miscellaneous, " +
                  compute::jnum(compute::field(block, "communication_count")) + " communication");
  const Json& skipped = compute::field(block, "communication_ops_skipped");
  if (skipped.is_object()) {
    items.push_back(
        "Communication Kernels (Skipped): " + compute::jnum(compute::field(&skipped, "count")) +
        " communication operation(s) are left to the collective-communication "
        "analysis and are not counted here");
  }
  return items;
}

std::string GenericProse::no_data_message() const {
  return "No uncategorized operations found in trace.";
}

std::string GenericProse::insight(const compute::FindingContext& f) const {
  if (f.comparative) return FindingsProse::insight(f);
  return compute::measured_facts(
      f, op_kind_description(classify_op_kind(compute::lead_operation_name(f))));
}

std::string GenericProse::action(const compute::FindingContext& f) const {
  return op_kind_action(classify_op_kind(compute::lead_operation_name(f)), f.bound_type());
}

std::string GenericProse::reasoning(const compute::FindingContext& f) const {
  return FindingsProse::reasoning(f) + " Cross-category fusion potential not assessed here " +
         kDash + " defer to the kernel fusion analysis.";
}

std::vector<std::string> GenericProse::identification_extras(
    const compute::FindingContext& f) const {
  const std::string name = compute::lead_operation_name(f);
  std::vector<std::string> out{"By its name, `" + name + "` is " +
                               op_kind_description(classify_op_kind(name)) + "."};
  if (is_graph_replay(name)) {
    out.push_back(
        "It was replayed inside a GPU graph, so its launch overhead is already "
        "amortized and only the kernel time remains.");
  }
  const Json& sub =
      compute::field(&compute::field(compute::dominant_operation(f), "classification"), "sub_category");
  if (sub.is_string()) {
    out.push_back("Sub-category: " + sub.as_string() + ". Sub-category is heuristic " + kDash +
                  " verify against op semantics before acting on it.");
  }
  return out;
}

}  // namespace loupe::generic
