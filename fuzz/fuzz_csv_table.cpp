// The RFC 4180 reader behind every perf_report_csvs/ and category_data/ table.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string_view>

#include "loupe/core/model/csv_table.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const auto table =
        loupe::core::parse_csv(std::string_view(reinterpret_cast<const char*>(data), size));
    for (std::size_t r = 0; r < table.row_count(); ++r) {
      for (std::size_t c = 0; c < table.column_count(); ++c) (void)table.cell(r, c).text.size();
    }
  } catch (const std::exception&) {
    // A malformed CSV is a reported error, not a crash.
  }
  return 0;
}
