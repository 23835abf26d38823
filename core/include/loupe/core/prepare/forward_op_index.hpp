// The forward op a backward op takes its perf-model parameters from (perf::forward_op_name),
// found by the autograd sequence number both record.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "loupe/core/trace/trace_model.hpp"

namespace loupe::core::prepare {

// Built lazily, one scan of the trace per forward op name asked for. Not thread-safe.
class ForwardOpIndex {
 public:
  explicit ForwardOpIndex(const trace::TraceModel& model) : model_(model) {}

  // The op named `forward_name` with the sequence number of `backward` that started last at or
  // before it (the one TraceLens's models, walking the ops in time order, have seen last when
  // they reach the backward op); nullopt when the backward op records no sequence number or no
  // such op exists.
  std::optional<trace::Uid> find(trace::Uid backward, std::string_view forward_name);

 private:
  using BySequence = std::unordered_map<std::int64_t, std::vector<trace::Uid>>;
  const BySequence& ops_named(std::string_view name);

  const trace::TraceModel& model_;
  std::unordered_map<std::string, BySequence> by_name_;
};

}  // namespace loupe::core::prepare
