// The per-family op sheets computed natively equal TraceLens's, byte for byte, for every
// reference run (MI300X arch, python frames in the tree, compat time): same set of sheet files,
// same bytes in each.
#include <catch2/catch.hpp>

#include <optional>

#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include "cli_runner.hpp"
#include "loupe/core/model/csv_table.hpp"
#include "loupe/core/prepare/perf_sheets.hpp"
#include "loupe/core/trace/json_reader.hpp"
#include "prepare_test_support.hpp"
#include "reference_pack.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;
namespace lp = loupe::core::prepare;
namespace lt = loupe::core::trace;

namespace {

// Whether a reference file name is a per-family sheet: <family>.csv, <family>_fwd.csv or
// <family>_bwd.csv for a family of the perf-model registry.
bool is_sheet_file(const std::string& file) {
  for (const auto& [family, names] : lp::perf::sheet_families()) {
    for (const char* suffix : {".csv", "_fwd.csv", "_bwd.csv"}) {
      if (file == std::string(family).append(suffix)) return true;
    }
  }
  return false;
}

}  // namespace

TEST_CASE("per-family op sheets equal TraceLens's for every reference run",
          "[prepare][perf_sheets][parity][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  const std::optional<lp::perf::Arch> arch = loupe::test::mi300x_arch();
  const char* dump = std::getenv("LOUPE_SHEETS_DUMP_DIR");
  std::size_t runs = 0, compared = 0, identical = 0;
  std::map<std::string, int> identical_per_sheet;
  for (const auto& run : loupe::test::reference_runs(shared)) {
    const fs::path dir = run.directory / "perf_report_csvs";
    if (!fs::exists(dir)) continue;
    INFO("run " << run.name);
    ++runs;
    std::set<std::string> expected_files;
    for (const auto& entry : fs::directory_iterator(dir)) {
      const std::string file = entry.path().filename().string();
      if (is_sheet_file(file)) expected_files.insert(file);
    }
    auto loaded = lt::load_trace(run.trace);
    REQUIRE_FALSE(loaded.error.has_value());
    lt::TreeOptions options;
    options.add_python_func = true;
    options.time_mode = lt::TimeMode::kTraceLensCompat;
    const auto tree = lt::EventTree::build(loaded.model, options);
    const auto sheets = lp::build_perf_sheets(loaded.model, tree, &*arch);

    std::map<std::string, const std::string*> ours;
    for (const auto& sheet : sheets) {
      CHECK(ours.emplace(sheet.file_name, &sheet.csv).second);
      if (dump != nullptr) {
        fs::create_directories(fs::path(dump) / run.name);
        std::ofstream(fs::path(dump) / run.name / sheet.file_name) << sheet.csv;
      }
    }
    for (const auto& [file, csv] : ours) {
      if (expected_files.count(file) == 0) {
        FAIL_CHECK(run.name << ": unexpected sheet " << file);
      }
    }
    for (const auto& file : expected_files) {
      ++compared;
      const auto it = ours.find(file);
      const std::string expected = loupe::test::read_text(dir / file);
      std::string problem;
      if (it == ours.end()) {
        problem = "sheet not produced";
      } else if (*it->second != expected) {
        problem = loupe::test::first_csv_difference(*it->second, expected);
      }
      if (problem.empty()) {
        ++identical;
        ++identical_per_sheet[file];
      } else {
        FAIL_CHECK(run.name << "/" << file << ": " << problem);
      }
    }
  }
  std::string per_sheet;
  for (const auto& [file, count] : identical_per_sheet) {
    per_sheet.append(" ").append(file).append("=").append(std::to_string(count));
  }
  WARN(identical << " of " << compared << " sheets identical over " << runs << " runs;"
                 << per_sheet);
  CHECK(runs >= 38);
  CHECK(identical == compared);
  CHECK(compared >= 74);
}
