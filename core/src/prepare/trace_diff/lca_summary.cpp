// TraceComparison::lca_summaries: the LCA metadata the perf report attaches to each
// unified_perf_summary row (tracediff_comparison_extension's _build_lca_metadata).
#include <map>
#include <set>

#include "diff_stats_csv.hpp"
#include "loupe/core/prepare/trace_diff.hpp"

namespace loupe::core::prepare {

std::vector<std::optional<LcaSummary>> TraceComparison::lca_summaries(
    const std::unordered_map<trace::Uid, std::size_t>& kernel_to_row, std::size_t row_count) const {
  // With identical traces the report has dropped the `source` column by now and TraceLens's
  // enrichment fails on it; no columns are added here (docs/trace-diff.md).
  if (rows_.empty() || identical_ || kernel_to_row.empty()) return {};
  const trace_diff::DiffStatsFormat format(rows_);

  // Rows with an LCA, grouped by LCA id (ascending, as pandas groupby sorts), in row order.
  std::map<std::size_t, std::vector<const DiffStatsRow*>> trace1_by_lca;
  std::map<std::size_t, double> trace2_time;  // first trace-2 busy_time per LCA
  for (const DiffStatsRow& row : rows_) {
    if (!row.lca_id) continue;
    if (row.source == DiffSource::kTrace1) {
      trace1_by_lca[*row.lca_id].push_back(&row);
    } else {
      trace2_time.try_emplace(*row.lca_id, format.busy_time(row));
    }
  }

  std::vector<std::optional<LcaSummary>> out(row_count);
  std::vector<std::vector<std::optional<std::string>>> names(row_count);
  bool any = false;
  for (const auto& [lca_id, group] : trace1_by_lca) {
    const double t1_total = format.busy_time(*group.front());
    const auto t2 = trace2_time.find(lca_id);
    const double t2_total = t2 != trace2_time.end() ? t2->second : 0.0;
    const bool has_trace2 = t2 != trace2_time.end();
    std::optional<std::string> display;
    for (const DiffStatsRow* row : group) {
      if (row->lca_name) {
        display = row->lca_name;
        break;
      }
    }
    if (display && display->empty()) display.reset();

    std::set<std::size_t> seen;
    for (const DiffStatsRow* row : group) {
      const auto it = kernel_to_row.find(row->gpu_op_uid);
      if (it == kernel_to_row.end() || it->second >= row_count) continue;
      const std::size_t key = it->second;
      if (!seen.insert(key).second) continue;
      std::optional<LcaSummary>& summary = out[key];
      const std::string id_text = format.lca_id_text(lca_id);
      if (!summary) {
        summary = LcaSummary{id_text, {}, t1_total, t2_total, has_trace2 ? 1 : 0};
        names[key].push_back(display);
        any = true;
        continue;
      }
      // A row reached through several LCAs: ids and names listed, times added up.
      summary->lca_ids += "; " + id_text;
      names[key].push_back(display);
      summary->total_kernel_time_trace1_us += t1_total;
      summary->total_kernel_time_trace2_us += t2_total;
      if (has_trace2) ++summary->count_trace2;
    }
  }
  if (!any) return {};
  for (std::size_t k = 0; k < row_count; ++k) {
    if (!out[k]) continue;
    std::string joined;
    bool first = true;
    for (const auto& name : names[k]) {
      if (!name) continue;
      if (!first) joined += "; ";
      joined += *name;
      first = false;
    }
    out[k]->lca_names = std::move(joined);
  }
  return out;
}

}  // namespace loupe::core::prepare
