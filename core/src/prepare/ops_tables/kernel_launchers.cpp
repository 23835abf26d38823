// §3.3 kernel launchers: each non-communication GPU op is attributed to the nearest enclosing
// cpu_op of its runtime call (python frames and `execute` pass through), else to the runtime
// call itself.
#include <algorithm>
#include <unordered_map>

#include "loupe/core/prepare/ops_tables.hpp"
#include "loupe/core/trace/gpu_timeline.hpp"

namespace loupe::core::prepare {

namespace {

using trace::Category;
using trace::Uid;

// The launcher of a GPU op whose runtime call is `runtime`.
Uid launcher_of(const trace::TraceModel& model, const trace::EventTree& tree, Uid runtime) {
  for (Uid current = tree.parent(runtime); current != trace::kNoUid;) {
    const Category category = model.event(current).category;
    if (category == Category::kCpuOp) {
      if (model.name(current) != "execute") return current;
    } else if (category != Category::kPythonFunction) {
      break;
    }
    current = tree.parent(current);
  }
  return runtime;
}

}  // namespace

PandasNumber gpu_busy_time(const trace::TraceModel& model, std::span<const Uid> gpu_ops) {
  if (gpu_ops.empty()) return {0.0, true};
  std::vector<std::pair<double, double>> spans;
  spans.reserve(gpu_ops.size());
  bool integer_times = true;
  for (const Uid uid : gpu_ops) {
    const double start = model.ts_us(uid);
    spans.emplace_back(start, start + model.dur_us(uid));
    integer_times = integer_times && model.ts_is_integer(uid) && model.dur_is_integer(uid);
  }
  return busy_time(spans, integer_times);
}

std::vector<KernelLauncher> kernel_launchers(const trace::TraceModel& model,
                                             const trace::EventTree& tree) {
  std::vector<KernelLauncher> launchers;  // first-seen order
  std::unordered_map<Uid, std::size_t> index_of;
  for (Uid uid = 0; uid < model.event_count(); ++uid) {
    if (!trace::is_gpu_category(model.event(uid).category)) continue;
    if (trace::is_communication_name(model.name(uid))) continue;
    const Uid runtime = tree.parent(uid);
    if (runtime == trace::kNoUid) continue;  // launch not captured
    const Uid launcher = launcher_of(model, tree, runtime);
    const auto [it, inserted] = index_of.try_emplace(launcher, launchers.size());
    if (inserted) launchers.push_back(KernelLauncher{launcher, {}, {}, {}});
    launchers[it->second].direct_ops.push_back(uid);
  }
  std::stable_sort(launchers.begin(), launchers.end(),
                   [&](const KernelLauncher& a, const KernelLauncher& b) {
                     return model.ts_us(a.uid) < model.ts_us(b.uid);
                   });
  for (KernelLauncher& launcher : launchers) {
    std::stable_sort(launcher.direct_ops.begin(), launcher.direct_ops.end(),
                     [&](Uid a, Uid b) { return model.ts_us(a) < model.ts_us(b); });
    launcher.direct_time = gpu_busy_time(model, launcher.direct_ops);
    launcher.subtree_time = gpu_busy_time(model, tree.gpu_events(launcher.uid));
  }
  return launchers;
}

}  // namespace loupe::core::prepare
