#include "comparison_columns.hpp"

namespace loupe::core::prepare::unified {

std::vector<CsvValue> comparison_cells(const std::optional<LcaSummary>& summary,
                                       double row_kernel_time_sum) {
  if (!summary) return std::vector<CsvValue>(kComparisonColumns.size(), CsvValue::empty());
  const double t1 = summary->total_kernel_time_trace1_us;
  const double t2 = summary->total_kernel_time_trace2_us;
  return {t1 == 0 ? CsvValue::empty() : CsvValue::real(t2 / t1),
          CsvValue::real(t2 - row_kernel_time_sum),
          CsvValue::real(static_cast<double>(summary->count_trace2)),
          CsvValue::text(summary->lca_ids),
          CsvValue::text(summary->lca_names),
          CsvValue::real(t1),
          CsvValue::real(t2)};
}

}  // namespace loupe::core::prepare::unified
