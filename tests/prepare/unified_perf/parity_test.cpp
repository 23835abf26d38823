// unified_perf_summary.csv computed natively equals TraceLens's, cell by cell, for every
// reference run that has one (MI300X arch, python frames in the tree, compat time).
#include <catch2/catch.hpp>

#include <optional>

#include <cstdlib>
#include <fstream>
#include <string>

#include "cli_runner.hpp"
#include "loupe/core/model/csv_table.hpp"
#include "loupe/core/prepare/unified_perf_summary.hpp"
#include "loupe/core/trace/json_reader.hpp"
#include "prepare_test_support.hpp"
#include "reference_pack.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;
namespace lp = loupe::core::prepare;
namespace lt = loupe::core::trace;

TEST_CASE("unified_perf_summary.csv equals TraceLens's for every reference run",
          "[prepare][unified][parity][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  const std::optional<lp::perf::Arch> arch = loupe::test::mi300x_arch();
  std::size_t compared = 0, identical = 0;
  for (const auto& run : loupe::test::reference_runs(shared)) {
    const fs::path expected_path = run.directory / "perf_report_csvs/unified_perf_summary.csv";
    if (!fs::exists(expected_path)) continue;
    INFO("run " << run.name);
    auto loaded = lt::load_trace(run.trace);
    REQUIRE_FALSE(loaded.error.has_value());
    lt::TreeOptions options;
    options.add_python_func = true;
    options.time_mode = lt::TimeMode::kTraceLensCompat;
    const auto tree = lt::EventTree::build(loaded.model, options);
    const std::string ours = lp::unified_perf_summary_csv(loaded.model, tree, &*arch);
    const std::string expected =
        loupe::test::undo_tmp_placeholder(loupe::test::read_text(expected_path));
    ++compared;
    if (ours == expected) {
      ++identical;
    } else {
      FAIL_CHECK(run.name << ": " << loupe::test::first_csv_difference(ours, expected));
    }
    if (const char* dump = std::getenv("LOUPE_UNIFIED_DUMP_DIR"); dump != nullptr) {
      std::ofstream(fs::path(dump) / (run.name + ".csv")) << ours;
    }
  }
  WARN(identical << " of " << compared << " runs identical");
  CHECK(compared >= 38);
  CHECK(identical == compared);
}
