#include "memory_timeline_table.hpp"

#include <charconv>
#include <cstdint>
#include <string_view>

namespace loupe::core::prepare::analysis_dir {

namespace {

// An int cell as parse_csv reads its decimal text: float(text) is the int rounded to a double.
void add_int(CsvTable& table, std::int64_t value) {
  char buffer[24];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  table.add_number(static_cast<double>(value), std::string_view(buffer, end - buffer));
}

}  // namespace

CsvTable memory_timeline_table(const trace::MemoryTimeline& timeline) {
  CsvTable table({"device", "ts_ns", "allocated_bytes", "reserved_bytes", "bytes", "op"});
  std::size_t rows = 0;
  for (const auto& device : timeline.devices) rows += device.samples.size();
  table.reserve(rows * table.column_count(), 0);
  for (const auto& device : timeline.devices) {
    for (const auto& sample : device.samples) {
      table.add_field(device.device);
      add_int(table, sample.ts_ns);
      add_int(table, sample.allocated);
      add_int(table, sample.reserved);
      add_int(table, sample.bytes);
      table.add_field(sample.op);
    }
  }
  return table;
}

}  // namespace loupe::core::prepare::analysis_dir
