// Trace args values parsed once per distinct text (docs/performance.md, "Big traces"): the
// model interns every args value, and the ops of a big trace repeat the same shapes, so the perf
// report parses each value once instead of once per row and table.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "loupe/core/prepare/forward_op_index.hpp"
#include "loupe/core/trace/trace_model.hpp"
#include "loupe/json_value.hpp"

namespace loupe::core::prepare {

// One args value: parsed as parse_json_text reads it (the text itself as a string when it is
// not JSON), with its Python str() computed on first use.
struct TraceArg {
  Json value;
  std::optional<std::string> str_as_tuples;  // py_json_str(value, true)
  std::optional<std::string> str_as_lists;   // py_json_str(value, false)
};

// Not thread-safe: one cache per consumer.
class TraceArgCache {
 public:
  explicit TraceArgCache(const trace::TraceModel& model) : model_(model), forward_ops_(model) {}
  const trace::TraceModel& model() const { return model_; }
  // The forward ops some backward ops take their parameters from.
  ForwardOpIndex& forward_ops() { return forward_ops_; }

  // args[keys[i]] of `uid` (the first entry of that key, as TraceModel::arg_text finds it), in
  // one pass over its args; nullptr where the op has no such arg. Valid as long as the cache.
  std::array<TraceArg*, 4> find(trace::Uid uid, std::span<const char* const, 4> keys);

  // str() of the value as py_json_str writes it; nullopt for JSON null (Python's None).
  static const std::string* python_str(TraceArg& arg, bool lists_as_tuples);

 private:
  TraceArg& parsed(const trace::ArgPair& pair);
  // The interned id of a key text (kNoString when no arg has that key), memoized: the callers
  // ask the same few keys for every op.
  trace::StringId key_id(const char* key);

  const trace::TraceModel& model_;
  std::unordered_map<std::uint32_t, TraceArg> by_value_;  // by ArgPair::value (node-stable)
  std::vector<std::pair<std::string, trace::StringId>> key_ids_;
  ForwardOpIndex forward_ops_;
};

}  // namespace loupe::core::prepare
