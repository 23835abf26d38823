// Public API edge cases: F-0, I/O failures (Q-41), text entry point, formatting.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "corpus_support.hpp"
#include "loupe/core/validate/validator.hpp"

using loupe::core::format_validation_json;
using loupe::core::format_validation_text;
using loupe::core::Scope;
using loupe::core::validate_findings_file;
using loupe::core::validate_findings_in_memory;
using loupe::core::validate_findings_text;
using loupe::core::ValidationMode;
using loupe::core::ValidationResult;

namespace {

void write_file(const std::filesystem::path& path, const std::string& content) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << content;
}

const std::string kMinimalSystemFile =
    "## Recommendations\n"
    "### P1: Idle gaps\n"
    "**Insight**: i\n**Action**: a\n"
    "<!-- impact-begin kind=p_item low=null mid=null high=null -->\n"
    "**Impact**: Not quantifiable from trace data\n"
    "<!-- impact-end -->\n"
    "## Detailed Analysis\n"
    "<!-- reasoning-candidate tier=system rank=1 -->\n"
    "#### Idle gaps\n"
    "**Impact estimate:** Impact estimate is not quantifiable from trace data.\n";

}  // namespace

TEST_CASE("missing file gives the F-0 message alone", "[validator][api]") {
  const loupe::test::TempOutputDir dir;
  const auto path = dir.path() / "system_findings" / "nothing_findings.md";
  const auto result =
      validate_findings_file(path, "system", Scope::Standalone, ValidationMode::TraceLens);
  CHECK_FALSE(result.passed);
  CHECK_FALSE(result.io_error);
  CHECK(result.errors == std::vector<std::string>{"File not found: " + path.string()});
}

TEST_CASE("a directory or invalid UTF-8 is an I/O error (Q-41)", "[validator][api]") {
  const loupe::test::TempOutputDir dir;
  const auto as_directory =
      validate_findings_file(dir.path(), "system", Scope::Standalone, ValidationMode::TraceLens);
  CHECK(as_directory.io_error);
  CHECK_FALSE(as_directory.passed);
  CHECK(as_directory.errors.size() == 1);

  const auto bad_utf8 =
      validate_findings_text("## Recommendations\n\xff", "x_findings.md", "system",
                             Scope::Standalone, ValidationMode::Default);
  CHECK(bad_utf8.io_error);
  CHECK_FALSE(bad_utf8.passed);
}

TEST_CASE("a metrics JSON that is not an object is an I/O error on compute tier",
          "[validator][api]") {
  const loupe::test::TempOutputDir dir;
  const auto findings = dir.path() / "category_findings" / "gemm_findings.md";
  write_file(findings, "## Recommendations\n## Detailed Analysis\n");
  write_file(dir.path() / "category_data" / "gemm_metrics.json", "[1, 2]");
  const auto compute =
      validate_findings_file(findings, "compute", Scope::Standalone, ValidationMode::Default);
  CHECK(compute.io_error);
  // Other tiers never read the metrics JSON.
  const auto system =
      validate_findings_file(findings, "system", Scope::Standalone, ValidationMode::TraceLens);
  CHECK_FALSE(system.io_error);

  // Invalid JSON just leaves relaxed-empty mode off (no I/O error).
  write_file(dir.path() / "category_data" / "gemm_metrics.json", "{not json");
  const auto invalid =
      validate_findings_file(findings, "compute", Scope::Standalone, ValidationMode::TraceLens);
  CHECK_FALSE(invalid.io_error);
  CHECK(invalid.errors.size() == 6);
}

TEST_CASE("relaxed-empty honours the last duplicate key like Python json", "[validator][api]") {
  const loupe::test::TempOutputDir dir;
  const auto findings = dir.path() / "category_findings" / "gemm_findings.md";
  write_file(findings, "## Recommendations\n## Detailed Analysis\n");
  write_file(dir.path() / "category_data" / "gemm_metrics.json",
             R"({"category_findings": [1], "category_findings": []})");
  CHECK(validate_findings_file(findings, "compute", Scope::Standalone, ValidationMode::TraceLens)
            .passed);
  write_file(dir.path() / "category_data" / "gemm_metrics.json",
             R"({"category_findings": [], "category_findings": null})");
  CHECK_FALSE(
      validate_findings_file(findings, "compute", Scope::Standalone, ValidationMode::TraceLens)
          .passed);
}

TEST_CASE("the in-memory entry checks against the metrics given, never the file beside",
          "[validator][api]") {
  const loupe::test::TempOutputDir dir;
  const auto findings = dir.path() / "category_findings" / "gemm_findings.md";
  const std::string empty = "## Recommendations\n## Detailed Analysis\n";
  // On disk: metrics whose empty category_findings relaxes the check.
  write_file(findings, empty);
  write_file(dir.path() / "category_data" / "gemm_metrics.json", R"({"category_findings": []})");
  CHECK(validate_findings_file(findings, "compute", Scope::Standalone, ValidationMode::TraceLens)
            .passed);
  // In memory: the metrics given decide, whatever the disk holds.
  const auto strict =
      validate_findings_in_memory(empty, findings, R"({"category_findings": [1]})", "compute",
                                  Scope::Standalone, ValidationMode::TraceLens);
  CHECK_FALSE(strict.passed);
  CHECK(strict.errors.size() == 6);
  const auto none = validate_findings_in_memory(empty, findings, std::nullopt, "compute",
                                                Scope::Standalone, ValidationMode::TraceLens);
  CHECK(none.errors == strict.errors);
  CHECK(validate_findings_in_memory(empty, findings, R"({"category_findings": []})", "compute",
                                    Scope::Standalone, ValidationMode::TraceLens)
            .passed);
  // The messages name the metrics file derived from the findings path, as from disk.
  const auto not_object = validate_findings_in_memory(empty, findings, "[1, 2]", "compute",
                                                      Scope::Standalone, ValidationMode::Default);
  CHECK(not_object.io_error);
  REQUIRE(not_object.errors.size() == 1);
  CHECK(not_object.errors[0] == "gemm_metrics.json: top-level JSON value is not an object");
}

TEST_CASE("text entry point normalizes CRLF and uses the path basename", "[validator][api]") {
  std::string crlf;
  for (const char c : kMinimalSystemFile) {
    if (c == '\n') crlf += '\r';
    crlf += c;
  }
  const auto ok = validate_findings_text(crlf, "/nowhere/system_findings/cpu_idle_findings.md",
                                         "system", Scope::Comparative, ValidationMode::TraceLens);
  CHECK(ok.passed);
  CHECK(ok.errors.empty());

  const auto wrong_tier =
      validate_findings_text(kMinimalSystemFile, "cpu_idle_findings.md", "fusion",
                             Scope::Standalone, ValidationMode::TraceLens);
  CHECK(wrong_tier.errors ==
        std::vector<std::string>{"reasoning-candidate tier mismatch: expected tier=fusion, found "
                                 "tier=system rank=1"});
}

TEST_CASE("default-mode honest-empty rule keeps rejecting card-like content", "[validator][api]") {
  const std::string empty_system =
      "# CPU idle\n## Recommendations\nNothing to report.\n## Detailed Analysis\nNone.\n";
  CHECK(validate_findings_text(empty_system, "cpu_idle_findings.md", "system", Scope::Standalone,
                               ValidationMode::Default)
            .passed);
  CHECK(validate_findings_text(empty_system, "kernel_fusion_findings.md", "fusion",
                               Scope::Standalone, ValidationMode::Default)
            .passed);
  CHECK_FALSE(validate_findings_text(empty_system, "cpu_idle_findings.md", "System",
                                     Scope::Standalone, ValidationMode::Default)
                  .passed);
  CHECK_FALSE(validate_findings_text(empty_system, "cpu_idle_findings.md", "system",
                                     Scope::Standalone, ValidationMode::TraceLens)
                  .passed);
  const std::string labels_only =
      "## Recommendations\n### System P<N>: x\n**Insight**: y\n## Detailed Analysis\n";
  CHECK_FALSE(validate_findings_text(labels_only, "m_findings.md", "system", Scope::Standalone,
                                     ValidationMode::Default)
                  .passed);
  const std::string reversed = "## Detailed Analysis\n## Recommendations\n";
  CHECK_FALSE(validate_findings_text(reversed, "m_findings.md", "system", Scope::Standalone,
                                     ValidationMode::Default)
                  .passed);
  const std::string stray_marker =
      "## Recommendations\n## Detailed Analysis\n<!-- impact-end -->\n";
  CHECK_FALSE(validate_findings_text(stray_marker, "m_findings.md", "system", Scope::Standalone,
                                     ValidationMode::Default)
                  .passed);
}

TEST_CASE("kernel-fusion fallback is accepted only for tier fusion in default mode",
          "[validator][api]") {
  const std::string fallback =
      "# Kernel Fusion Analysis Summary (Experimental)\n\nNo kernel fusion opportunities "
      "detected.\n";
  CHECK(validate_findings_text(fallback, "kernel_fusion_findings.md", "fusion", Scope::Standalone,
                               ValidationMode::Default)
            .passed);
  CHECK_FALSE(validate_findings_text(fallback, "kernel_fusion_findings.md", "system",
                                     Scope::Standalone, ValidationMode::Default)
                  .passed);
  CHECK_FALSE(validate_findings_text(fallback + "extra\n", "kernel_fusion_findings.md", "fusion",
                                     Scope::Standalone, ValidationMode::Default)
                  .passed);
}

TEST_CASE("formatting of results", "[validator][api]") {
  ValidationResult pass;
  pass.passed = true;
  CHECK(format_validation_text(pass) == "PASS: Findings file is valid\n");
  CHECK(format_validation_json(pass) == R"({"passed":true,"errors":[]})");

  ValidationResult fail;
  fail.errors = {"a \"quoted\" \u2014 error", "second"};
  CHECK(format_validation_text(fail) == "FAIL:\n  - a \"quoted\" \u2014 error\n  - second\n");
  CHECK(format_validation_json(fail) ==
        "{\"passed\":false,\"errors\":[\"a \\\"quoted\\\" \u2014 error\",\"second\"]}");
  // Errors quote the validated file: bytes that are not UTF-8 never reach the JSON.
  fail.errors = {"unknown kind=\xff\xed\xb0\x80 \x1b[2J"};
  CHECK(format_validation_json(fail) ==
        "{\"passed\":false,\"errors\":[\"unknown kind=\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
        "\xef\xbf\xbd \\u001B[2J\"]}");
}

// Settled from TraceLens's validation_utils.py (`got {header_cols}`): the F-10 message lists
// every header cell of the table, not only the first ten.
TEST_CASE("F-10 lists all header cells, beyond the ten required", "[validator][api]") {
  const std::string file =
      "## Recommendations\n### P1: Slow\n**Insight**: i\n**Action**: a\n"
      "<!-- impact-begin kind=p_item low=1 mid=2 high=3 -->\n**Impact**: impact_score: 2\n"
      "<!-- impact-end -->\n## Detailed Analysis\n"
      "<!-- reasoning-candidate tier=compute rank=1 -->\n#### Slow\n**Data:**\n\n"
      "| Operation | Args | Kernel Name | Kernel Path | Time (ms) | %E2E | Count | FLOPS/Byte | "
      "Efficiency | Bound | Extra |\n|---|\n"
      "<!-- impact-begin kind=detail_estimate low=1 high=3 -->\n<!-- impact-end -->\n";
  const auto result =
      validate_findings_text(file, "out/category_findings/gemm_findings.md", "compute",
                             Scope::Standalone, ValidationMode::TraceLens);
  REQUIRE(result.errors.size() == 1);
  CHECK(result.errors[0] ==
        "compute Data table at line 13: header must start with the 10 canonical columns in order "
        "['Operation', 'Args', 'Kernel Path', 'Kernel Name', 'Time (ms)', '%E2E', 'Count', "
        "'FLOPS/Byte', 'Efficiency', 'Bound']; got ['Operation', 'Args', 'Kernel Name', "
        "'Kernel Path', 'Time (ms)', '%E2E', 'Count', 'FLOPS/Byte', 'Efficiency', 'Bound', "
        "'Extra'] (sub_agent_spec.md § Operations Table Schema)");
}
