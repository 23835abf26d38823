// coll_analysis.csv computed natively equals TraceLens's, byte for byte, and exists exactly
// for the reference runs where TraceLens wrote it.
//
// What the reference pack shows (checked against TraceLens's perf report and NcclAnalyser):
// * Only two traces hold communication kernels, and both got the file: b200_eager (one NCCL
//   all-gather with full collective args) and mi300_resnet_act_checkpoint (17 NCCL kernels;
//   the 5 early ones carry only a correlation id and no collective args, so the grouping
//   drops them and 12 kernels make 4 rows). No run has communication kernels but no file.
// * resnet prints Group size and the nelems columns as floats (8.0, 8816192.0): the dropped
//   kernels still sit in the per-kernel table with those args missing, which makes pandas
//   store the whole column as float64. b200, where every kernel has them, prints ints. The
//   dropped kernels are linked by correlation id only, so TraceLens's filter must accept
//   correlation as well as External id (an External-id-only filter would print ints).
// * Rows come out in descending dur_sum order; a group of one has an empty dur_std.
#include <catch2/catch.hpp>

#include <filesystem>
#include <optional>
#include <string>

#include "cli_runner.hpp"
#include "loupe/core/prepare/coll_analysis.hpp"
#include "loupe/core/trace/json_reader.hpp"
#include "prepare_test_support.hpp"
#include "reference_pack.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;
namespace lp = loupe::core::prepare;
namespace lt = loupe::core::trace;

TEST_CASE("coll_analysis.csv exists and equals TraceLens's for every reference run",
          "[prepare][coll][parity][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  std::size_t runs = 0, with_file = 0, identical = 0;
  for (const auto& run : loupe::test::reference_runs(shared)) {
    INFO("run " << run.name);
    auto loaded = lt::load_trace(run.trace);
    REQUIRE_FALSE(loaded.error.has_value());
    const std::optional<std::string> ours = lp::coll_analysis_csv(loaded.model);
    const fs::path expected_path = run.directory / "perf_report_csvs/coll_analysis.csv";
    ++runs;
    const bool expected_exists = fs::exists(expected_path);
    CHECK(ours.has_value() == expected_exists);
    if (!expected_exists || !ours) continue;
    ++with_file;
    const std::string expected = loupe::test::read_text(expected_path);
    if (*ours == expected) {
      ++identical;
    } else {
      FAIL_CHECK(run.name << ": " << loupe::test::first_csv_difference(*ours, expected));
    }
  }
  WARN(identical << " of " << with_file << " coll_analysis.csv identical over " << runs << " runs");
  CHECK(runs >= 38);
  CHECK(with_file == 2);
  CHECK(identical == with_file);
}
