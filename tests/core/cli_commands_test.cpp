// `loupe plugins`, `loupe validate`, `--version` and `--help`.
#include <catch2/catch.hpp>

#include "cli_runner.hpp"
#include "test_paths.hpp"

using loupe::test::run_loupe;

TEST_CASE("--version and --help", "[cli]") {
  auto r = run_loupe({"--version"});
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::StartsWith("loupe ") && Catch::Contains("plugin ABI 1.0"));
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
}

TEST_CASE("loupe plugins lists loaded and rejected plugins", "[cli]") {
  const auto dir = loupe::test::test_plugin_dir();
  const auto r =
      run_loupe({"plugins", "--plugin-dir", (dir / "good").string(), "--plugin-dir",
                 (dir / "wrong_abi").string(), "--plugin-dir", (dir / "duplicate").string()});
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("test_good 0.0.1  [ABI 1.0, system]  categories: test_good"));
  CHECK_THAT(r.out, Catch::Contains("ABI major 99 does not match host ABI major 1"));
  CHECK_THAT(r.out, Catch::Contains("category 'test_shared' is already claimed"));
  const auto j = run_loupe({"plugins", "--json", "--plugin-dir", (dir / "good").string()});
  CHECK(j.exit_code == 0);
  CHECK_THAT(j.out, Catch::Contains("\"name\": \"test_good\"") && Catch::Contains("\"rejected\""));
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
