#include "loupe/core/prepare/forward_op_index.hpp"

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
      if (seq != trace::kNoValue) it->second[seq].push_back(u);
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
  // The latest start at or before the backward op's (the trace's order of events need not be
  // time order); the first in the trace among equal starts.
  const std::int64_t start = model_.event(backward).ts_ns;
  std::optional<trace::Uid> best;
  for (const trace::Uid u : found->second) {
    const std::int64_t ts = model_.event(u).ts_ns;
    if (ts == trace::kNoValue || ts > start) continue;
    if (!best || ts > model_.event(*best).ts_ns) best = u;
  }
  return best;
}

}  // namespace loupe::core::prepare
