// Stable op names (op_name_normalization.hpp).
#include "loupe/core/trace/op_name_normalization.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace loupe::core::trace {
namespace {

constexpr std::string_view kSglangPrefix = "sglang_profiler::";

bool is_host_tree_event(Category c) { return c == Category::kCpuOp || is_runtime_category(c); }

}  // namespace

std::string_view stable_sglang_op_name(std::string_view name) {
  if (!name.starts_with(kSglangPrefix)) return {};
  const std::size_t underscore = name.rfind('_');
  // At least one character of op name before the suffix, at least one digit after it.
  if (underscore == std::string_view::npos || underscore <= kSglangPrefix.size() ||
      underscore + 1 == name.size()) {
    return {};
  }
  const std::string_view digits = name.substr(underscore + 1);
  if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return {};
  }
  return name.substr(0, underscore);
}

std::size_t normalize_op_names(TraceModel& model) {
  // Host events per suffixed name; the name's first event decides, as in TraceLens's tree (its
  // name index lists host events in start-time order).
  std::unordered_map<StringId, std::vector<Uid>> by_name;
  const auto n = static_cast<Uid>(model.event_count());
  for (Uid u = 0; u < n; ++u) {
    const Event& e = model.events_[u];
    if (!is_host_tree_event(e.category)) continue;
    if (stable_sglang_op_name(model.str(e.name)).empty()) continue;
    by_name[e.name].push_back(u);
  }
  std::vector<std::pair<StringId, std::vector<Uid>>> groups(by_name.begin(), by_name.end());
  // Interning order fixed by name, so string ids do not depend on hash-map order.
  std::sort(groups.begin(), groups.end(), [&model](const auto& a, const auto& b) {
    return model.str(a.first) < model.str(b.first);
  });
  std::size_t renamed = 0;
  for (auto& [name, uids] : groups) {
    const Uid first = *std::min_element(uids.begin(), uids.end(), [&model](Uid a, Uid b) {
      const double ta = model.ts_us(a);
      const double tb = model.ts_us(b);
      return ta != tb ? ta < tb : a < b;
    });
    if (model.events_[first].category != Category::kCpuOp) continue;
    const std::string stable(stable_sglang_op_name(model.str(name)));
    const StringId stable_id = model.strings_.intern(stable);
    for (const Uid u : uids) model.events_[u].name = stable_id;
    renamed += uids.size();
  }
  return renamed;
}

}  // namespace loupe::core::trace
