// TraceLens parity on the reference pack (skipped without ../shared): every conv metrics file
// TraceLens wrote for a real or synthetic run, and the synthetic cases of spec docs/contracts/conv.md §6, must
// be reproduced byte for byte by `--compat tracelens`; the default mode must produce findings
// that pass TraceLens's validator on the same inputs.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "cli_runner.hpp"
#include "conv_test_support.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;
using loupe::test::read_text;
using loupe::test::TempDir;

namespace {

struct RunCase {
  fs::path dir;
  std::string category;
};

std::vector<RunCase> conv_runs(const fs::path& shared) {
  std::vector<RunCase> out;
  for (const fs::path& root : {shared / "data/reference", shared / "data/golden/conv/runs"}) {
    for (const auto& entry : fs::directory_iterator(root)) {
      for (const char* cat : {"conv_fwd", "conv_bwd"}) {
        if (fs::exists(entry.path() / "category_data" / (std::string(cat) + "_metrics.json"))) {
          out.push_back({entry.path(), cat});
        }
      }
    }
  }
  return out;
}

}  // namespace

TEST_CASE("conv parity: every TraceLens conv metrics file of the reference pack", "[pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  const auto runs = conv_runs(shared);
  CHECK(runs.size() == 23);  // 13 reference metrics files + 10 in golden/conv/runs
  for (const auto& run : runs) {
    INFO(run.dir.string() << " " << run.category);
    TempDir tmp;
    const auto result = conv_test::analyze(run.dir, tmp.path(), run.category, true);
    INFO(result.err);
    REQUIRE(result.exit_code == 0);
    CHECK(conv_test::metrics_with_placeholder(tmp.path(), run.category, run.dir) ==
          read_text(run.dir / "category_data" / (run.category + "_metrics.json")));
    // The corrected mode on the same inputs: OK and valid for TraceLens's validator too.
    TempDir corrected;
    REQUIRE(conv_test::analyze(run.dir, corrected.path(), run.category, false).exit_code == 0);
    const fs::path findings =
        corrected.path() / "category_findings" / (run.category + "_findings.md");
    CHECK(conv_test::validate(findings, "standalone", true).exit_code == 0);
    CHECK(read_text(corrected.path() / "category_data" / (run.category + "_metrics.json"))
              .find("NaN") == std::string::npos);
  }
}

TEST_CASE("conv parity: the synthetic cases of spec §6 (golden/cases)", "[pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  const fs::path cases = shared / "data/golden/conv/golden/cases";
  int exact = 0;
  for (const auto& entry : fs::directory_iterator(cases)) {
    const std::string name = entry.path().filename().string();
    INFO("case " << name);
    TempDir tmp;
    const fs::path dir = tmp.path() / "in";
    conv_test::make_analysis_dir(entry.path(), dir);
    const std::string scope = name == "tc10" ? "comparative" : "standalone";
    const auto result =
        conv_test::analyze(dir, tmp.path() / "out", "conv_fwd", true, {"--scope", scope});
    const fs::path expected = entry.path() / "category_data/conv_fwd_metrics.json";
    const std::string metrics =
        conv_test::metrics_with_placeholder(tmp.path() / "out", "conv_fwd", dir);
    if (fs::exists(expected)) {
      const bool error_case = name == "tc11" || name == "tc11b";
      CHECK(result.exit_code == (error_case ? 1 : 0));
      CHECK(metrics == read_text(expected));
      ++exact;
      if (!error_case) {
        // Corrected mode: never NaN (I-7, I-8, I-13; tc21 has a NaN kernel time and launcher),
        // and the findings pass TraceLens's validator.
        const auto corrected =
            conv_test::analyze(dir, tmp.path() / "fixed", "conv_fwd", false, {"--scope", scope});
        CHECK(corrected.exit_code == 0);
        CHECK(read_text(tmp.path() / "fixed/category_data/conv_fwd_metrics.json").find("NaN") ==
              std::string::npos);
        CHECK(conv_test::validate(tmp.path() / "fixed/category_findings/conv_fwd_findings.md",
                                  scope, true)
                  .exit_code == 0);
      }
    } else {
      // TraceLens crashes without writing metrics (header-only, 0-byte CSV, NaN
      // operation_count): Loupe reports ERROR instead.
      CHECK(result.exit_code == 1);
      CHECK(metrics.find("\"status\": \"ERROR\"") != std::string::npos);
    }
  }
  CHECK(exact == 17);
}
