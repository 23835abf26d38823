#include "loupe/core/prepare/coll_analysis.hpp"

#include "loupe/core/prepare/coll/coll_summary.hpp"
#include "loupe/core/prepare/coll/collective_rows.hpp"

namespace loupe::core::prepare {

std::optional<std::string> coll_analysis_csv(const trace::TraceModel& model) {
  // The report skips the collective analysis for GPU-only traces (EventTree::gpu_only's test).
  const bool gpu_only = model.events_in_category(trace::Category::kCpuOp) == 0 &&
                        model.events_with_cat_string("python_func") == 0;
  if (gpu_only) return std::nullopt;
  return coll::summary_csv(coll::collective_rows(model));
}

}  // namespace loupe::core::prepare
