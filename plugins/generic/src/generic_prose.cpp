#include "generic_prose.hpp"

#include "generic_op_kind.hpp"
#include "loupe/compute/finding_facts.hpp"
#include "loupe/compute/json_fields.hpp"
#include "loupe/kernel_names.hpp"

namespace loupe::generic {

namespace {

constexpr const char* kDash = "\xE2\x80\x94";

constexpr std::string_view kSyntheticSuffix = " (Synthetic Op)";

}  // namespace

std::optional<std::pair<std::string, std::string>> split_synthetic(std::string_view op_name) {
  if (!op_name.ends_with(kSyntheticSuffix)) return std::nullopt;
  const std::string_view body = op_name.substr(0, op_name.size() - kSyntheticSuffix.size());
  const auto arrow = body.find("->");
  if (arrow == std::string_view::npos) return std::nullopt;
  return std::make_pair(std::string(body.substr(0, arrow)), std::string(body.substr(arrow + 2)));
}

std::string GenericProse::title(const compute::FindingContext& f) const {
  if (compat_ || !f.heuristic()) return FindingsProse::title(f);
  const std::string name = compute::lead_operation_name(f);
  const auto parts = split_synthetic(name);
  if (!parts) return "Unmodeled op " + short_kernel_name(name, 80);
  const bool replayed = is_graph_replay(name) || callers_.contains(parts->second);
  const std::string where =
      replayed ? std::string("GPU-graph replay") : "launched under " + parts->first;
  return "Unmodeled op " + short_kernel_name(parts->second) + " (" + where + ")";
}

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
  const auto parts = split_synthetic(name);
  const auto it = parts ? callers_.find(parts->second) : callers_.end();
  if (is_graph_replay(name) || it != callers_.end()) {
    out.push_back(
        "It was replayed inside a GPU graph, so its launch overhead is already "
        "amortized and only the kernel time remains.");
    if (it != callers_.end() && !it->second.caller.empty()) {
      out.push_back(
          "The graph was replayed by `" + it->second.launch + "` called from `" +
          it->second.caller + "`" +
          (it->second.step.empty() ? std::string() : " in step `" + it->second.step + "`") + " (" +
          std::to_string(it->second.launches) + " launch(es) of " +
          std::to_string(it->second.kernels_per_launch) +
          " kernels; analysis.md, \"Serving Steps and GPU Graphs\").");
    } else if (it != callers_.end()) {
      out.push_back("No host op or Python frame above its `" + it->second.launch +
                    "` is in the trace, so the replay cannot be attributed to the code that "
                    "launched it.");
    }
  }
  const Json& sub = compute::field(
      &compute::field(compute::dominant_operation(f), "classification"), "sub_category");
  if (sub.is_string()) {
    out.push_back("Sub-category: " + sub.as_string() + ". Sub-category is heuristic " + kDash +
                  " verify against op semantics before acting on it.");
  }
  return out;
}

}  // namespace loupe::generic
