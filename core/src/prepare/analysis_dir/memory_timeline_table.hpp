// perf_report_csvs/memory_timeline.csv as the model's table, built from the timeline rather than
// parsed back from the CSV text (docs/architecture.md, "preparation").
#pragma once

#include "loupe/core/model/csv_table.hpp"
#include "loupe/core/trace/memory_timeline.hpp"

namespace loupe::core::prepare::analysis_dir {

// Equal, cell for cell, to parse_csv(trace::memory_timeline_csv(timeline)).
CsvTable memory_timeline_table(const trace::MemoryTimeline& timeline);

}  // namespace loupe::core::prepare::analysis_dir
