// call_stack_full (§3.6.4): the chains of a row's kernels merged into their common prefix and
// distinct tails, and the str() TraceLens writes.
#include <algorithm>
#include <string>
#include <vector>

#include "loupe/core/prepare/call_stack.hpp"
#include "loupe/core/prepare/py_repr.hpp"

namespace loupe::core::prepare {

namespace {

std::size_t common_prefix_length(std::span<const std::vector<std::string>> chains) {
  std::size_t length = chains.front().size();
  for (const auto& chain : chains.subspan(1)) {
    const auto mismatch = std::mismatch(
        chain.begin(), chain.begin() + static_cast<std::ptrdiff_t>(std::min(length, chain.size())),
        chains.front().begin());
    length = static_cast<std::size_t>(mismatch.first - chain.begin());
  }
  return length;
}

void append_list_repr(std::string& out, std::span<const std::string> items) {
  out.push_back('[');
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out.append(", ");
    out.append(py_str_repr(items[i]));
  }
  out.push_back(']');
}

}  // namespace

MergedCallStack merge_call_stacks(std::span<const std::vector<std::string>> chains) {
  MergedCallStack merged;
  if (chains.empty()) return merged;
  if (chains.size() == 1) {
    merged.common = chains.front();
    return merged;
  }
  const std::size_t prefix = common_prefix_length(chains);
  const auto prefix_end = chains.front().begin() + static_cast<std::ptrdiff_t>(prefix);
  merged.common.assign(chains.front().begin(), prefix_end);
  for (const auto& chain : chains) {
    std::vector<std::string> tail(chain.begin() + static_cast<std::ptrdiff_t>(prefix), chain.end());
    if (std::find(merged.tails.begin(), merged.tails.end(), tail) == merged.tails.end()) {
      merged.tails.push_back(std::move(tail));
    }
  }
  return merged;
}

std::string call_stack_full_repr(const MergedCallStack& merged) {
  std::string out;
  out.push_back('[');
  bool first = true;
  for (const auto& frame : merged.common) {
    if (!first) out.append(", ");
    first = false;
    out.append(py_str_repr(frame));
  }
  for (const auto& tail : merged.tails) {
    if (!first) out.append(", ");
    first = false;
    append_list_repr(out, tail);
  }
  out.push_back(']');
  return out;
}

std::vector<std::string> flatten(const MergedCallStack& merged) {
  std::vector<std::string> flat = merged.common;
  for (const auto& tail : merged.tails) flat.insert(flat.end(), tail.begin(), tail.end());
  return flat;
}

}  // namespace loupe::core::prepare
