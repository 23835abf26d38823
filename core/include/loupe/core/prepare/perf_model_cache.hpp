// Perf-model results evaluated once per distinct input (docs/performance.md, "Big traces"):
// perf::evaluate reads only the op name, the four shape/type args values (and those of the
// forward op a backward op takes its parameters from, and a pseudo op's own args), the kernel
// names, the step annotation and the direction, and the op instances of a big trace repeat a few
// hundred such inputs, so the unified summary and the per-family sheets evaluate each input once
// instead of copying the parsed args and running the formulas per op instance.
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "loupe/core/prepare/perf_model.hpp"
#include "loupe/core/prepare/trace_arg_cache.hpp"
#include "loupe/core/trace/trace_model.hpp"

namespace loupe::core::prepare {

// One evaluation with the texts its rows write: repr() of the params dict (the unified
// summary's perf_params) and str() of each param value (the sheets' `param: *` cells).
struct ModelEvaluation {
  perf::ModelResult result;
  std::string params_repr;              // perf::params_repr(result.params); "" unless ok()
  std::vector<std::string> param_strs;  // str() of result.params[i].second; empty unless ok()

  explicit ModelEvaluation(perf::ModelResult r);
};

// Not thread-safe: one cache per consumer; its args cache must outlive it.
class PerfModelCache {
 public:
  explicit PerfModelCache(TraceArgCache& args) : args_(args) {}
  TraceArgCache& args() { return args_; }

  // perf::evaluate(name, trace_op_args(args, nullptr, uid, kernels), direction) with the
  // args' step_annotation set to `step_annotation`; the same object for the same input.
  std::shared_ptr<const ModelEvaluation> evaluate(std::string_view name, trace::Uid uid,
                                                  std::span<const trace::Uid> kernels,
                                                  std::optional<std::string_view> step_annotation,
                                                  perf::Direction direction);

 private:
  // The inputs perf::evaluate reads; an args value by its cache entry (one per distinct text).
  struct Key {
    std::string name;
    std::array<const TraceArg*, 4> args{};
    // The args of the forward op the model takes its parameters from (perf::forward_op_name),
    // all null when the op has none.
    std::array<const TraceArg*, 4> forward_args{};
    bool has_forward = false;
    std::string pseudo_args;  // a pseudo op's own args (pseudo_op_args), as JSON text; "" if none
    std::vector<trace::StringId> kernels;
    bool has_step = false;
    std::string step;
    perf::Direction direction = perf::Direction::kForward;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    std::size_t operator()(const Key& key) const;
  };

  TraceArgCache& args_;
  Key scratch_;  // the key being looked up, reused so that a hit allocates nothing
  std::unordered_map<Key, std::shared_ptr<const ModelEvaluation>, KeyHash> cache_;
};

}  // namespace loupe::core::prepare
