// unified_perf_summary.csv computed natively equals TraceLens's, cell by cell, for every
// reference run that has one (MI300X arch, python frames in the tree, compat time).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <string>

#include "cli_runner.hpp"
#include "loupe/core/arch_specs.hpp"
#include "loupe/core/csv_table.hpp"
#include "loupe/core/prepare/unified_perf_summary.hpp"
#include "loupe/core/trace/json_reader.hpp"
#include "reference_pack.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;
namespace lp = loupe::core::prepare;
namespace lt = loupe::core::trace;

namespace {

std::string mi300x_spec() {
  for (const auto& file : loupe::core::embedded_arch_specs()) {
    if (file.name == "MI300X.json") return std::string(file.text);
  }
  return {};
}

// The first differing cell (columns matched by name), or a column-set difference.
std::string first_difference(const std::string& ours, const std::string& theirs) {
  const auto a = loupe::core::parse_csv(ours);
  const auto b = loupe::core::parse_csv(theirs);
  std::string missing;
  std::vector<std::pair<std::size_t, std::size_t>> common;
  for (std::size_t cb = 0; cb < b.column_count(); ++cb) {
    bool found = false;
    for (std::size_t ca = 0; ca < a.column_count(); ++ca) {
      if (a.column_name(ca) == b.column_name(cb)) {
        common.emplace_back(ca, cb);
        found = true;
      }
    }
    if (!found) missing += " " + b.column_name(cb);
  }
  if (a.row_count() != b.row_count()) {
    return "row count " + std::to_string(a.row_count()) + " vs " + std::to_string(b.row_count()) +
           "; missing columns:" + missing;
  }
  for (std::size_t r = 0; r < a.row_count(); ++r) {
    for (const auto& [ca, cb] : common) {
      if (a.cell(r, ca).text != b.cell(r, cb).text) {
        return "row " + std::to_string(r) + " (" + b.cell(r, 0).text + ") column " +
               b.column_name(cb) + ": [" + a.cell(r, ca).text.substr(0, 300) + "] vs [" +
               b.cell(r, cb).text.substr(0, 300) + "]; missing columns:" + missing;
      }
    }
  }
  if (a.column_count() != common.size()) return "extra columns; missing:" + missing;
  return missing.empty() ? "bytes differ (quoting or line ends)" : "missing columns:" + missing;
}

}  // namespace

TEST_CASE("unified_perf_summary.csv equals TraceLens's for every reference run",
          "[prepare][unified][parity]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  const auto arch = lp::perf::parse_arch_json(mi300x_spec());
  REQUIRE(arch.has_value());
  std::size_t compared = 0, identical = 0, known_gaps = 0;
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
    const std::string expected = loupe::test::read_text(expected_path);
    ++compared;
    if (ours == expected) {
      ++identical;
    } else if (run.name == "b200_eager" || run.name == "utc_test01_moe_fused_vs_unfused_trace1") {
      // One op each has a TraceLens perf model Loupe lacks (docs/deviations.md): the inductor
      // triton model, aiter::moe_sorting_fwd's MoE_aux model.
      ++known_gaps;
      WARN(run.name << " (known gap): " << first_difference(ours, expected));
    } else {
      FAIL_CHECK(run.name << ": " << first_difference(ours, expected));
    }
    if (const char* dump = std::getenv("LOUPE_UNIFIED_DUMP_DIR"); dump != nullptr) {
      std::ofstream(fs::path(dump) / (run.name + ".csv")) << ours;
    }
  }
  WARN(identical << " of " << compared << " runs identical, " << known_gaps << " known gaps");
  CHECK(compared >= 38);
  CHECK(identical + known_gaps == compared);
  CHECK(known_gaps <= 2);
}
