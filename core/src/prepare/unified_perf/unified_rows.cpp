#include "unified_rows.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "loupe/core/prepare/ops_tables.hpp"
#include "loupe/core/prepare/perf_model_cache.hpp"
#include "loupe/core/prepare/trace_op_args.hpp"
#include "moe_rows.hpp"

namespace loupe::core::prepare::unified {
namespace {

// The op's kernels by start time: the kernel_details the per-family sheets leave on a modeled
// op, whose names GEMM reads for its transpose flags.
std::vector<trace::Uid> kernels_by_start(const trace::TraceModel& model,
                                         const trace::EventTree& tree, trace::Uid uid) {
  std::vector<trace::Uid> kernels = tree.gpu_events(uid);
  std::stable_sort(kernels.begin(), kernels.end(), [&](trace::Uid a, trace::Uid b) {
    return model.event(a).ts_ns < model.event(b).ts_ns;
  });
  return kernels;
}

void fill_identity(TraceArgCache& args, UnifiedRow& row) {
  const trace::TraceModel& model = args.model();
  const trace::Event& e = model.event(row.source);
  if (e.thread != trace::kNoIndex) {
    row.process_name = model.process_name(e.thread);
    row.process_label = model.process_label(e.thread);
    row.thread_name = model.thread_name(e.thread);
  }
  const auto found = args.find(row.source, kTraceArgKeys);
  for (std::size_t i = 0; i < found.size(); ++i) {
    if (found[i] == nullptr) continue;
    row.args[i] = TraceArgCache::python_str(*found[i], true);
  }
  row.has_duration = (e.flags & trace::kHasDur) != 0;
  if (row.has_duration) {
    row.duration_us = {model.dur_us(row.source), model.dur_is_integer(row.source)};
  }
}

}  // namespace

void apply_metrics(const perf::ModelResult& result, const perf::Arch* arch, UnifiedRow& row) {
  apply_metrics(result, perf::params_repr(result.params), arch, row);
}

void apply_metrics(const perf::ModelResult& result, std::string params_repr, const perf::Arch* arch,
                   UnifiedRow& row) {
  row.perf_params = std::move(params_repr);
  const perf::Metrics m = perf::compute_metrics(result, row.kernel_time_us.value, arch);
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  row.has_metrics = true;
  row.gflops = m.gflops;
  row.data_moved_mb = m.data_moved_mb.value_or(kNaN);
  row.flops_per_byte = m.flops_per_byte;
  row.tflops_per_s = m.tflops_per_s;
  row.tb_per_s = m.tb_per_s;
  row.compute_spec = m.compute_spec;
  row.roofline_time_us = m.roofline_time_us.value_or(kNaN);
  row.roofline_bound = m.roofline_bound;
  row.pct_roofline = m.pct_roofline;
}

std::vector<UnifiedRow> build_unified_rows(TraceArgCache& args, const trace::EventTree& tree,
                                           std::span<const KernelLauncher> launchers,
                                           std::span<const CollectedEvent> collected,
                                           const perf::Arch* arch, bool loupe_models) {
  const trace::TraceModel& model = args.model();
  // The categorizer reads the first entry of an op's kernel_details, which at this point of
  // TraceLens's pipeline are the kernels it launched directly (launcher table, §3.3); ops that
  // launch nothing directly have none. (resnet: max_pool2d_with_indices_backward is "other"
  // although its first subtree kernel is a fill launched by a child op.)
  std::unordered_map<trace::Uid, trace::Uid> first_direct_kernel;
  for (const KernelLauncher& launcher : launchers) {
    if (!launcher.direct_ops.empty())
      first_direct_kernel[launcher.uid] = launcher.direct_ops.front();
  }
  PerfModelCache models(args);
  std::vector<UnifiedRow> rows;
  rows.reserve(collected.size());
  auto next_uid = static_cast<std::int64_t>(model.event_count());  // max UID + 1
  for (const CollectedEvent& c : collected) {
    UnifiedRow row;
    row.source = c.source;
    row.synthetic = c.kind == CollectedKind::kSynthetic;
    row.uid = row.synthetic ? next_uid++ : static_cast<std::int64_t>(c.source);
    row.name = c.name;
    fill_identity(args, row);
    row.gpu_events = c.gpu_events;
    row.kernel_details = kernel_details_of(model, row.gpu_events);
    row.kernel_time_us = gpu_busy_time(model, row.gpu_events);
    const auto direct = first_direct_kernel.find(row.source);
    const std::string_view first_kernel =
        direct == first_direct_kernel.end() ? std::string_view() : model.name(direct->second);

    if (c.kind == CollectedKind::kModeled) {
      row.has_perf_model = true;
      row.category = perf::op_category(row.name, first_kernel);
      std::optional<std::string_view> step = tree.step_annotation(model, row.source);
      // Default mode: the other engines' attention ops read their step too.
      if (loupe_models && !step) step = tree.serving_step_annotation(model, row.source);
      const auto evaluation =
          models.evaluate(row.name, row.source, kernels_by_start(model, tree, row.source), step,
                          perf::Direction::kForward);
      const perf::ModelResult& result = evaluation->result;
      if (result.error == perf::ModelError::kNotImplemented) continue;
      if (result.ok()) apply_metrics(result, evaluation->params_repr, arch, row);
    } else if (c.kind == CollectedKind::kSoleBackward) {
      row.has_perf_model = true;
      const perf::ModelInfo* info = perf::find_model(model.name(c.forward));
      row.category = info != nullptr ? std::string(info->bwd_category)
                                     : perf::op_category(row.name, first_kernel);
      const auto evaluation = models.evaluate(
          model.name(c.forward), c.forward, kernels_by_start(model, tree, c.forward),
          tree.step_annotation(model, c.forward), perf::Direction::kBackward);
      const perf::ModelResult& result = evaluation->result;
      if (result.error == perf::ModelError::kNotImplemented) continue;
      if (result.ok()) apply_metrics(result, evaluation->params_repr, arch, row);
    } else {
      row.category = perf::op_category(row.name, first_kernel);
    }
    if (loupe_models) apply_matmul_ogs_model(args, tree, arch, row);
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace loupe::core::prepare::unified
