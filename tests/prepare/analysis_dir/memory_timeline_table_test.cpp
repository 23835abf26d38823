// perf_report_csvs/memory_timeline.csv handed to the model as a table built from the timeline:
// it must be the table the model would parse from the file's bytes.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <string>

#include "loupe/core/model/csv_table.hpp"
#include "loupe/core/trace/memory_timeline.hpp"
#include "memory_timeline_table.hpp"

namespace ad = loupe::core::prepare::analysis_dir;
using loupe::core::CsvTable;

namespace {

void check_equal(const CsvTable& built, const CsvTable& parsed) {
  REQUIRE(built.column_count() == parsed.column_count());
  REQUIRE(built.row_count() == parsed.row_count());
  for (std::size_t c = 0; c < built.column_count(); ++c) {
    CHECK(built.column_name(c) == parsed.column_name(c));
  }
  for (std::size_t r = 0; r < built.row_count(); ++r) {
    for (std::size_t c = 0; c < built.column_count(); ++c) {
      const auto a = built.cell(r, c);
      const auto b = parsed.cell(r, c);
      INFO("row " << r << " column " << built.column_name(c));
      CHECK(a.kind == b.kind);
      CHECK(a.text == b.text);
      CHECK((a.number == b.number || (std::isnan(a.number) && std::isnan(b.number))));
    }
  }
}

}  // namespace

TEST_CASE("the memory timeline's table equals the parse of its CSV", "[prepare][analysis_dir]") {
  loupe::core::trace::MemoryTimeline t;
  t.events = 6;
  loupe::core::trace::DeviceMemory gpu;
  gpu.device = "cuda:0";
  // Large and negative values, an int beyond 2^53 (rounded the same both ways), op names that
  // need quoting, look like numbers, or are empty.
  gpu.samples = {{1000, 512, 2097152, 512, "aten::empty"},
                 {2000, 0, 2097152, -512, "my, \"op\""},
                 {3000, 9007199254740993, 9007199254740993, 1, "1e3"},
                 {4000, -1, 0, -9007199254740993, ""},
                 {5000, 7, 7, 7, "nan"}};
  loupe::core::trace::DeviceMemory cpu;
  cpu.device = "cpu";
  cpu.samples = {{1500, 64, 64, 64, "line\nbreak"}};
  t.devices = {gpu, cpu};
  const CsvTable built = ad::memory_timeline_table(t);
  CHECK(built.row_count() == 6);
  CHECK(built.cell(2, 5).kind == loupe::core::CsvCell::Kind::Number);  // "1e3", as pandas reads it
  CHECK(built.cell(1, 5).text == "my, \"op\"");
  check_equal(built, loupe::core::parse_csv(loupe::core::trace::memory_timeline_csv(t)));
}
