#include "sheet_rows.hpp"

#include "loupe/core/prepare/ops_tables.hpp"
#include "loupe/core/prepare/trace_op_args.hpp"  // kTraceArgKeys
#include "op_kernels.hpp"
#include "sheet_naming.hpp"

namespace loupe::core::prepare::sheets {
namespace {

// The kernels the row is timed on, in subtree order; nullopt when a backward row has no
// autograd events to time.
std::optional<std::vector<trace::Uid>> row_kernels(const trace::TraceModel& model,
                                                   const trace::EventTree& tree, trace::Uid uid,
                                                   perf::Direction direction) {
  if (direction == perf::Direction::kForward) return subtree_kernels(model, tree, uid);
  const auto events = backward_events(tree, uid);
  if (events.empty()) return std::nullopt;
  std::vector<trace::Uid> kernels;
  for (const trace::Uid b : events) {
    const auto sub = subtree_kernels(model, tree, b);
    kernels.insert(kernels.end(), sub.begin(), sub.end());
  }
  return kernels;
}

void fill_identity(const trace::TraceModel& model, SheetRow& row) {
  const trace::Event& e = model.event(row.uid);
  if (e.thread != trace::kNoIndex) {
    row.process_name = model.process_name(e.thread);
    row.process_label = model.process_label(e.thread);
    row.thread_name = model.thread_name(e.thread);
  }
}

}  // namespace

std::vector<SheetRow> build_sheet_rows(PerfModelCache& models, const trace::EventTree& tree,
                                       std::span<const trace::Uid> ops, perf::Direction direction,
                                       const perf::Arch* arch) {
  TraceArgCache& args_cache = models.args();
  const trace::TraceModel& model = args_cache.model();
  std::vector<SheetRow> rows;
  for (const trace::Uid uid : ops) {
    const std::string_view name = model.name(uid);
    if (direction == perf::Direction::kBackward && excluded_from_backward(name)) continue;
    auto kernels = row_kernels(model, tree, uid, direction);
    if (!kernels) continue;
    sort_by_start(model, *kernels);

    auto evaluation =
        models.evaluate(name, uid, *kernels, tree.step_annotation(model, uid), direction);
    // TraceLens catches the exception and drops the row
    if (!evaluation->result.ok()) continue;

    SheetRow row;
    row.uid = uid;
    row.name = std::string(name);
    fill_identity(model, row);
    const auto found = args_cache.find(uid, kTraceArgKeys);
    for (std::size_t i = 0; i < found.size(); ++i) {
      if (found[i] == nullptr) continue;
      row.args[i] = TraceArgCache::python_str(*found[i], false);
    }
    row.kernel_details = kernel_details_of(model, *kernels);
    row.kernel_time_us = gpu_busy_time(model, *kernels);
    row.metrics = perf::compute_metrics(evaluation->result, row.kernel_time_us.value, arch);
    row.model = std::move(evaluation);
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace loupe::core::prepare::sheets
