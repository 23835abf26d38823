// TraceLens parity on the reference pack (skipped without it): every metrics file TraceLens's
// generic script wrote for a category whose manifest skill is generic-op-analyzer, standalone and
// comparative, must be reproduced byte for byte by `--compat tracelens`; the default mode must
// give findings that pass Loupe's validator and metrics without NaN on the same inputs.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "cli_runner.hpp"
#include "compute_cli_support.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;
using loupe::test::read_text;
using loupe::test::TempDir;

TEST_CASE("generic parity: every generic-op-analyzer metrics file of the pack", "[pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  const auto runs = compute_cli_test::pack_cases_for_skill(shared, "generic-op-analyzer");
  // 24 "other" + 2 "multi_tensor_apply" + 2 "moe_aux"; 26 standalone, 2 comparative.
  CHECK(runs.size() == 28);
  int comparative = 0;
  for (const auto& run : runs) {
    INFO(run.dir.string() << " " << run.category);
    if (run.scope == "comparative") ++comparative;
    TempDir tmp;
    const auto result = compute_cli_test::analyze(run.dir, tmp.path(), run.category, true);
    INFO(result.err);
    REQUIRE(result.exit_code == 0);
    CHECK(compute_cli_test::metrics_with_placeholder(tmp.path(), run.category, run.dir) ==
          read_text(run.dir / "category_data" / (run.category + "_metrics.json")));
    const fs::path findings = tmp.path() / "category_findings" / (run.category + "_findings.md");
    CHECK(compute_cli_test::validate(findings, run.scope, true).exit_code == 0);

    TempDir corrected;
    REQUIRE(compute_cli_test::analyze(run.dir, corrected.path(), run.category, false).exit_code ==
            0);
    const auto check = compute_cli_test::validate(
        corrected.path() / "category_findings" / (run.category + "_findings.md"), run.scope, false);
    INFO(check.out << check.err);
    CHECK(check.exit_code == 0);
    CHECK(read_text(corrected.path() / "category_data" / (run.category + "_metrics.json"))
              .find("NaN") == std::string::npos);
  }
  CHECK(comparative == 2);
}
