// gpu_times_are_integers(): Python keeps integer `ts` / `dur` tokens as ints, which changes
// the data file's number spelling; the trace model records each token's form.
#include "loupe/core/prepare/multi_kernel_data.hpp"

namespace loupe::core::prepare {

bool gpu_times_are_integers(const trace::TraceModel& model) {
  std::size_t gpu_events = 0;
  for (trace::Uid uid = 0; uid < model.event_count(); ++uid) {
    if (!trace::is_gpu_category(model.event(uid).category)) continue;
    ++gpu_events;
    if (!model.ts_is_integer(uid) || !model.dur_is_integer(uid)) return false;
  }
  return gpu_events > 0;
}

}  // namespace loupe::core::prepare
