// TraceComparison: the merge, the diff-stats rows, TraceLens's identical-traces reduction and
// diff_stats.csv.
#include <algorithm>

#include "alignment.hpp"
#include "diff_rows.hpp"
#include "diff_side.hpp"
#include "diff_stats_csv.hpp"
#include "loupe/core/prepare/trace_diff.hpp"
#include "tree_merge.hpp"

namespace loupe::core::prepare {
namespace {

// TraceLens: the trace-1 rows without `source` equal the trace-2 rows, cell by cell, in order.
bool sources_identical(const std::vector<DiffStatsRow>& rows) {
  const trace_diff::DiffStatsFormat format(rows);
  std::vector<std::vector<std::string>> side1, side2;
  for (const DiffStatsRow& row : rows) {
    std::vector<std::string> cells;
    for (const CsvValue& cell : format.cells(row, false)) cells.push_back(cell.str());
    (row.source == DiffSource::kTrace1 ? side1 : side2).push_back(std::move(cells));
  }
  return side1 == side2;
}

}  // namespace

TraceComparison TraceComparison::compare(TraceSide trace1, TraceSide trace2,
                                         const TraceDiffOptions& options) {
  trace_diff::DiffSide side1(trace1), side2(trace2);
  trace_diff::AlignContext context;
  context.max_disambiguation_pairs = options.max_disambiguation_pairs;
  trace_diff::MergedTree merged = trace_diff::merge_trees(side1, side2, context);
  TraceComparison out;
  out.skipped_disambiguations_ = context.skipped_disambiguations;
  out.rows_ = trace_diff::diff_stats_rows(merged, side1, side2);
  out.nodes_ = std::move(merged.nodes);
  out.roots_ = std::move(merged.roots);
  // No row at all counts as identical too (TraceLens: "No GPU events found in either trace").
  out.identical_ = sources_identical(out.rows_);
  return out;
}

std::optional<std::string> TraceComparison::diff_stats_csv() const {
  if (rows_.empty()) return std::nullopt;
  const trace_diff::DiffStatsFormat format(rows_);
  const bool with_source = !identical_;  // identical: trace-2 rows and `source` dropped
  PandasCsvWriter writer(trace_diff::diff_stats_header(with_source));
  for (const DiffStatsRow& row : rows_) {
    if (identical_ && row.source == DiffSource::kTrace2) continue;
    writer.add_row(format.cells(row, with_source));
  }
  return writer.text();
}

}  // namespace loupe::core::prepare
