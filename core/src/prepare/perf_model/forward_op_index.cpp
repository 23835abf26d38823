#include "loupe/core/prepare/forward_op_index.hpp"

#include <algorithm>

namespace loupe::core::prepare {
namespace {

std::int64_t sequence_of(const trace::TraceModel& model, trace::Uid uid) {
  if ((model.event(uid).flags & trace::kHasArgs) == 0) return trace::kNoValue;
  const auto detail = model.detail(uid);
  return detail ? detail->sequence : trace::kNoValue;
}

}  // namespace

const ForwardOpIndex::BySequence& ForwardOpIndex::ops_named(std::string_view name) {
  const auto [it, inserted] = by_name_.try_emplace(std::string(name));
  if (inserted) {
    const auto n = static_cast<trace::Uid>(model_.event_count());
    for (trace::Uid u = 0; u < n; ++u) {
      if (model_.name(u) != name) continue;
      const std::int64_t seq = sequence_of(model_, u);
      if (seq != trace::kNoValue) it->second[seq].push_back(u);  // ascending uids
    }
  }
  return it->second;
}

std::optional<trace::Uid> ForwardOpIndex::find(trace::Uid backward, std::string_view forward_name) {
  const std::int64_t seq = sequence_of(model_, backward);
  if (seq == trace::kNoValue) return std::nullopt;
  const BySequence& ops = ops_named(forward_name);
  const auto found = ops.find(seq);
  if (found == ops.end()) return std::nullopt;
  const auto& uids = found->second;
  const auto after = std::lower_bound(uids.begin(), uids.end(), backward);
  if (after == uids.begin()) return std::nullopt;
  return *std::prev(after);
}

}  // namespace loupe::core::prepare
