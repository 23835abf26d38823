// `loupe plugins`, `loupe validate`, `--version` and `--help`.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>

#include "cli_runner.hpp"
#include "loupe/abi.h"
#include "loupe/core/model.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;
using loupe::test::run_loupe;

TEST_CASE("--version and --help", "[cli]") {
  auto r = run_loupe({"--version"});
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::StartsWith("loupe ") &&
                        Catch::Contains("plugin ABI 1." + std::to_string(LOUPE_ABI_MINOR)));
  r = run_loupe({"--help"});
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("analyze DIR") && Catch::Contains("Exit codes"));
  for (const char* command : {"analyze", "plugins", "validate"}) {
    r = run_loupe({command, "--help"});
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::Contains(std::string("Usage: loupe ") + command));
  }
  r = run_loupe({});
  CHECK(r.exit_code == 2);
  r = run_loupe({"frobnicate"});
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("unknown command 'frobnicate'"));
  CHECK_THAT(r.err, !Catch::Contains("did you mean"));
  r = run_loupe({"analyse", "--help"});
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("unknown command 'analyse' (did you mean 'analyze'?)"));
}

TEST_CASE("an unknown option suggests the closest one; --plugin-dir states its place", "[cli]") {
  auto r = run_loupe({"analyze", "--trace", "t.json", "-o", "out", "--platfrom", "H100"});
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("'--platfrom'") &&
                        Catch::Contains("(did you mean --platform?)") &&
                        Catch::Contains("Try 'loupe analyze --help'"));
  r = run_loupe({"inspect", "t.json", "--jsno"});
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("(did you mean --json?)"));
  // Nothing near: no suggestion; the positional argument's hidden name is never offered.
  r = run_loupe({"analyze", "--frobnicate"});
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, !Catch::Contains("did you mean"));
  r = run_loupe({"analyze", "--dri", "x"});
  CHECK_THAT(r.err, !Catch::Contains("did you mean --dir"));
  // The search order the help states is the one plugin_search_path() builds
  // (docs/plugin-abi.md, "Discovery and precedence").
  for (const char* command : {"analyze", "plugins"}) {
    r = run_loupe({command, "--help"});
    std::string help;  // the help wraps its lines: one space for every run of blanks
    for (const char c : r.out) {
      const bool blank = c == ' ' || c == '\n';
      if (!blank || (!help.empty() && help.back() != ' ')) help += blank ? ' ' : c;
    }
    CHECK_THAT(help, Catch::Contains("after the bundled plugins, before $LOUPE_PLUGIN_PATH"));
  }
}

TEST_CASE("loupe plugins lists loaded, rejected and shadowed plugins", "[cli]") {
  const auto dir = loupe::test::test_plugin_dir();
  const std::vector<std::string> args = {"plugins",
                                         "--plugin-dir",
                                         (dir / "good").string(),
                                         "--plugin-dir",
                                         (dir / "wrong_abi").string(),
                                         "--plugin-dir",
                                         (dir / "duplicate").string(),
                                         "--plugin-dir",
                                         (dir / "entry_segfaults").string()};
  const auto r = run_loupe(args);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("test_good 0.0.1  [ABI 1." + std::to_string(LOUPE_ABI_MINOR) +
                                    ", system]  categories: test_good"));
  CHECK_THAT(r.out, Catch::Contains("Rejected (2):") &&
                        Catch::Contains("ABI major 99 does not match host ABI major 1") &&
                        Catch::Contains("crashed with signal 11"));
  CHECK_THAT(r.out,
             Catch::Contains("Shadowed (1):") &&
                 Catch::Contains("category 'test_shared' is handled by plugin 'test_dup_a'"));
  auto strict = args;
  strict.emplace_back("--strict");
  CHECK(run_loupe(strict).exit_code == 2);

  const auto j = run_loupe({"plugins", "--json", "--plugin-dir", (dir / "good").string(),
                            "--plugin-dir", (dir / "wrong_abi").string()});
  CHECK(j.exit_code == 0);
  const auto doc = loupe::core::parse_json_document(j.out);
  REQUIRE((*doc)["files"].IsArray());
  std::map<std::string, std::string> states;
  for (const auto& f : (*doc)["files"].GetArray()) {
    states[fs::path(f["path"].GetString()).filename().string()] = f["state"].GetString();
  }
  CHECK(states["loupe_test_good.so"] == "loaded");
  CHECK(states["loupe_test_wrong_abi.so"] == "rejected");
  CHECK(states["loupe_conv.so"] == "loaded");

  const auto missing = run_loupe({"plugins", "--plugin-dir", "/nonexistent/plugins"});
  CHECK(missing.exit_code == 2);
  CHECK_THAT(missing.err, Catch::Contains("/nonexistent/plugins does not exist"));
}

TEST_CASE("loupe validate prints what the seeds' snippet prints", "[cli]") {
  const auto cases = loupe::test::bundled_data_dir() / "validator_cases";
  loupe::test::TempDir tmp;
  const auto good = tmp.path() / "system_findings" / "multi_kernel_findings.md";
  loupe::test::write_text(good,
                          loupe::test::read_text(cases / "multi_kernel_system_full_valid.md"));
  auto r = run_loupe({"validate", good.string(), "--tier", "system"});
  CHECK(r.exit_code == 0);
  CHECK(r.out == "PASS: Findings file is valid\n");

  const auto bad = tmp.path() / "system_findings" / "kernel_fusion_findings.md";
  loupe::test::write_text(
      bad, loupe::test::read_text(cases / "kernel_fusion_no_opportunities_fallback.md"));
  r = run_loupe({"validate", bad.string(), "--tier", "fusion", "--compat", "tracelens"});
  CHECK(r.exit_code == 1);
  CHECK(r.out ==
        "FAIL:\n  - Missing required section: ## Recommendations\n"
        "  - Missing required section: ## Detailed Analysis\n"
        "  - kernel_fusion_findings.md: missing required kind=p_item\n");
  // Loupe's default mode accepts TraceLens's prescribed "no opportunities" file.
  r = run_loupe({"validate", bad.string(), "--tier", "fusion"});
  CHECK(r.exit_code == 0);
  r = run_loupe({"validate", bad.string(), "--tier", "fusion", "--json", "--compat", "tracelens"});
  CHECK_THAT(r.out, Catch::StartsWith("{\"passed\":false,\"errors\":[\"Missing required section"));

  r = run_loupe({"validate", (tmp.path() / "nope.md").string(), "--tier", "system"});
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.out, Catch::Contains("File not found"));
  r = run_loupe({"validate", good.string()});
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("tier"));
}

TEST_CASE("loupe validate survives a metrics file nested a million levels deep", "[cli][fuzz]") {
  const auto cases = loupe::test::bundled_data_dir() / "validator_cases";
  loupe::test::TempDir tmp;
  const auto md = tmp.path() / "system_findings" / "multi_kernel_findings.md";
  loupe::test::write_text(md, loupe::test::read_text(cases / "multi_kernel_system_full_valid.md"));
  loupe::test::write_text(tmp.path() / "category_data" / "multi_kernel_metrics.json",
                          std::string(1000000, '[') + std::string(1000000, ']'));
  const auto r = run_loupe({"validate", md.string(), "--tier", "system"});
  CHECK((r.exit_code == 0 || r.exit_code == 1));
  CHECK_THAT(r.out, Catch::StartsWith("PASS") || Catch::StartsWith("FAIL"));
}
