#include "loupe/core/prepare/trace_op_args.hpp"

#include <algorithm>
#include <iterator>

#include "json_text.hpp"

namespace loupe::core::prepare {

Json trace_arg_json(const trace::TraceModel& model, trace::Uid uid, std::string_view key) {
  const auto text = model.arg_text(uid, key);
  return text ? parse_json_text(*text) : Json();
}

Json pseudo_op_args(const trace::TraceModel& model, trace::Uid uid) {
  const std::string_view name = model.name(uid);
  if (!name.starts_with("pseudo") || model.arg_text(uid, "Pseudo op") != "true") return Json();
  Json extra = Json::object();
  for (const trace::ArgPair& pair : model.args(uid)) {
    const std::string_view key = model.str(pair.key);
    if (key == "Pseudo op" || std::find(std::begin(kTraceArgKeys), std::end(kTraceArgKeys), key) !=
                                  std::end(kTraceArgKeys)) {
      continue;
    }
    extra[std::string(key)] = parse_json_text(model.arg_value_text(pair));
  }
  return extra;
}

namespace {

// kernel_names, step_annotation and pseudo_args of OpArgs.
void add_kernels_and_step(const trace::TraceModel& model, const trace::EventTree* tree,
                          trace::Uid uid, std::span<const trace::Uid> kernels, perf::OpArgs& args) {
  args.kernel_names.reserve(kernels.size());
  for (const trace::Uid k : kernels) args.kernel_names.emplace_back(model.name(k));
  if (tree != nullptr) {
    if (const auto annotation = tree->step_annotation(model, uid)) {
      args.step_annotation = std::string(*annotation);
    }
  }
  args.pseudo_args = pseudo_op_args(model, uid);
}

}  // namespace

perf::OpArgs trace_op_args(const trace::TraceModel& model, const trace::EventTree* tree,
                           trace::Uid uid, std::span<const trace::Uid> kernels) {
  perf::OpArgs args;
  args.input_dims = trace_arg_json(model, uid, kTraceArgKeys[0]);
  args.input_types = trace_arg_json(model, uid, kTraceArgKeys[1]);
  args.input_strides = trace_arg_json(model, uid, kTraceArgKeys[2]);
  args.concrete_inputs = trace_arg_json(model, uid, kTraceArgKeys[3]);
  add_kernels_and_step(model, tree, uid, kernels, args);
  return args;
}

bool trace_op_has_model(const trace::TraceModel& model, trace::Uid uid) {
  const std::string_view name = model.name(uid);
  const perf::ModelInfo* info = perf::find_model(name);
  if (info == nullptr) return false;
  if (!perf::model_checks_args(*info)) return true;
  return perf::can_model(name, trace_op_args(model, nullptr, uid, {}));
}

}  // namespace loupe::core::prepare
