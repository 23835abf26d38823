// The entry_point and call_stack_full cells of one unified_perf_summary row (§3.6.4).
#include <string>
#include <vector>

#include "loupe/core/prepare/call_stack.hpp"

namespace loupe::core::prepare {

namespace {

CallStackColumns columns_from_chains(const std::vector<std::vector<std::string>>& chains,
                                     std::string_view op_name) {
  if (chains.empty()) {
    return {std::string(kCallStackNotFound), std::string(kCallStackNotFound)};
  }
  const MergedCallStack merged = merge_call_stacks(chains);
  return {find_entry_point(flatten(merged), op_name), call_stack_full_repr(merged)};
}

}  // namespace

CallStackColumns call_stack_columns(const trace::TraceModel& model, const trace::EventTree& tree,
                                    trace::Uid node, std::span<const trace::Uid> kernels,
                                    std::string_view op_name) {
  const std::vector<std::string> stack = node_call_stack(model, tree, node);
  std::vector<std::vector<std::string>> chains;
  chains.reserve(kernels.size());
  for (const trace::Uid kernel : kernels) {
    auto chain = kernel_call_stack(model, tree, node, stack, kernel);
    chain.emplace_back(model.name(kernel));
    chains.push_back(std::move(chain));
  }
  return columns_from_chains(chains, op_name);
}

CallStackColumns synthetic_call_stack_columns(const trace::TraceModel& model,
                                              std::span<const trace::Uid> kernels,
                                              std::string_view op_name) {
  std::vector<std::vector<std::string>> chains;
  chains.reserve(kernels.size());
  for (const trace::Uid kernel : kernels) chains.push_back({std::string(model.name(kernel))});
  return columns_from_chains(chains, op_name);
}

}  // namespace loupe::core::prepare
