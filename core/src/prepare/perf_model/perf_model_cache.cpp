#include "loupe/core/prepare/perf_model_cache.hpp"

#include <functional>

#include "loupe/core/prepare/trace_op_args.hpp"

namespace loupe::core::prepare {

ModelEvaluation::ModelEvaluation(perf::ModelResult r) : result(std::move(r)) {
  if (!result.ok()) return;
  params_repr = perf::params_repr(result.params);
  param_strs.reserve(result.params.size());
  for (const auto& [key, value] : result.params) param_strs.push_back(value.str());
}

std::size_t PerfModelCache::KeyHash::operator()(const Key& key) const {
  std::size_t h = std::hash<std::string_view>{}(key.name);
  const auto mix = [&h](std::size_t v) { h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); };
  for (const TraceArg* arg : key.args) mix(std::hash<const TraceArg*>{}(arg));
  if (key.has_forward) {
    for (const TraceArg* arg : key.forward_args) mix(std::hash<const TraceArg*>{}(arg));
  }
  for (const trace::StringId k : key.kernels) mix(k);
  if (key.has_step) mix(std::hash<std::string_view>{}(key.step));
  mix(std::hash<std::string_view>{}(key.pseudo_args));
  mix(static_cast<std::size_t>(key.direction));
  return h;
}

std::shared_ptr<const ModelEvaluation> PerfModelCache::evaluate(
    std::string_view name, trace::Uid uid, std::span<const trace::Uid> kernels,
    std::optional<std::string_view> step_annotation, perf::Direction direction) {
  const trace::TraceModel& model = args_.model();
  Key& key = scratch_;
  key.name.assign(name);
  const auto found = args_.find(uid, kTraceArgKeys);
  for (std::size_t i = 0; i < found.size(); ++i) key.args[i] = found[i];
  key.has_forward = false;
  key.forward_args = {};
  if (const auto forward_name = perf::forward_op_name(name)) {
    if (const auto forward = args_.forward_ops().find(uid, *forward_name)) {
      key.has_forward = true;
      const auto forward_found = args_.find(*forward, kTraceArgKeys);
      for (std::size_t i = 0; i < forward_found.size(); ++i) key.forward_args[i] = forward_found[i];
    }
  }
  const Json pseudo = pseudo_op_args(model, uid);
  key.pseudo_args = pseudo.is_null() ? std::string() : dump_python_json(pseudo, -1);
  key.kernels.clear();
  for (const trace::Uid k : kernels) key.kernels.push_back(model.event(k).name);
  key.has_step = step_annotation.has_value();
  key.step.assign(step_annotation.value_or(std::string_view()));
  key.direction = direction;
  if (const auto it = cache_.find(key); it != cache_.end()) return it->second;

  const auto fill = [](perf::OpArgs& op, const std::array<const TraceArg*, 4>& values) {
    Json* fields[] = {&op.input_dims, &op.input_types, &op.input_strides, &op.concrete_inputs};
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (values[i] != nullptr) *fields[i] = values[i]->value;
    }
  };
  perf::OpArgs op;
  fill(op, key.args);
  if (key.has_forward) {
    auto forward = std::make_shared<perf::OpArgs>();
    fill(*forward, key.forward_args);
    op.forward = std::move(forward);
  }
  op.kernel_names.reserve(kernels.size());
  for (const trace::Uid k : kernels) op.kernel_names.emplace_back(model.name(k));
  if (step_annotation) op.step_annotation = std::string(*step_annotation);
  op.pseudo_args = pseudo;
  auto evaluation = std::make_shared<const ModelEvaluation>(perf::evaluate(name, op, direction));
  cache_.emplace(key, evaluation);
  return evaluation;
}

}  // namespace loupe::core::prepare
