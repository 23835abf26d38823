// Byte parity of fusion_candidates.json with what TraceLens wrote for every trace of the
// reference pack (shared/data/reference/<run>/category_data/fusion_candidates.json).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cli_runner.hpp"
#include "loupe/core/csv_table.hpp"
#include "loupe/core/prepare/fusion_candidates.hpp"
#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/json_reader.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;
namespace lt = loupe::core::trace;

namespace {

// (run, trace relative to data/traces) from the table of data/reference/README.md.
std::vector<std::pair<std::string, std::string>> reference_runs(const fs::path& shared) {
  const std::string readme = loupe::test::read_text(shared / "data/reference/README.md");
  static const std::regex row(R"(\| `([^`]+)` \| `([^`]+)` \|)");
  std::vector<std::pair<std::string, std::string>> runs;
  for (std::sregex_iterator it(readme.begin(), readme.end(), row), end; it != end; ++it) {
    runs.emplace_back((*it)[1].str(), (*it)[2].str());
  }
  return runs;
}

}  // namespace

TEST_CASE("fusion_candidates.json equals TraceLens's for every reference trace",
          "[prepare][fusion][parity]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  const auto runs = reference_runs(shared);
  REQUIRE(runs.size() >= 30);
  std::size_t compared = 0;
  for (const auto& [run, trace_rel] : runs) {
    const fs::path expected_path =
        shared / "data/reference" / run / "category_data/fusion_candidates.json";
    if (!fs::exists(expected_path)) continue;  // TraceLens wrote no file (prepare failed)
    const fs::path trace_path = shared / "data/traces" / trace_rel;
    INFO("run " << run << " trace " << trace_path.string());
    REQUIRE(fs::exists(trace_path));
    auto loaded = lt::load_trace(trace_path);
    REQUIRE_FALSE(loaded.error.has_value());
    lt::TreeOptions options;
    options.add_python_func = true;
    options.time_mode = lt::TimeMode::kTraceLensCompat;
    const auto tree = lt::EventTree::build(loaded.model, options);

    std::optional<loupe::core::CsvTable> csv;
    const fs::path csv_path =
        shared / "data/reference" / run / "perf_report_csvs/unified_perf_summary.csv";
    if (fs::exists(csv_path)) csv = loupe::core::parse_csv(loupe::test::read_text(csv_path));

    const auto result = loupe::core::prepare::fusion_candidates_standalone(loaded.model, tree,
                                                                           csv ? &*csv : nullptr);
    CHECK_FALSE(result.failed);
    const std::string expected = loupe::test::read_text(expected_path);
    CHECK(result.json == expected);
    if (const char* dump = std::getenv("LOUPE_FUSION_DUMP_DIR"); dump != nullptr) {
      std::ofstream(fs::path(dump) / (run + ".json")) << result.json;
    }
    ++compared;
  }
  CHECK(compared >= 30);
}
