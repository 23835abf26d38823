// `loupe plugins`, `loupe validate`, `--version` and `--help`.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>

#include <rapidjson/document.h>

#include "cli_runner.hpp"
#include "loupe/abi.h"
#include "loupe/core/model/model.hpp"
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
    CHECK_THAT(help, Catch::Contains("after the bundled plugins, before the configuration file's "
                                     "plugin_dirs and $LOUPE_PLUGIN_PATH"));
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
  // Loupe's default mode accepts TraceLens's prescribed "no opportunities" file (Q-15).
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

namespace {

// A findings.json with one finding; `id`, `category` and `title` are JSON text put in as is
// (escapes included), `mid` the mid saving's JSON text.
std::string one_finding(const std::string& id, const std::string& category,
                        const std::string& title, const std::string& mid) {
  return R"({"schema": "loupe.run_findings/2", "run": {}, "findings": [{"id": ")" + id +
         R"(", "priority": 1, "category": ")" + category + R"(", "tier": "compute", "title": ")" +
         title + R"(", "saving_ms": {"low": 1.0, "mid": )" + mid + R"(, "high": 3.0}}]})";
}

// True when `text` is JSON that a strict RFC 8259 parser reads: valid UTF-8 (checked by
// RapidJSON's encoding validation), no NaN / Infinity (refused without kParseNanAndInfFlag).
bool strict_json(const std::string& text) {
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseValidateEncodingFlag>(text.c_str(), text.size());
  return !doc.HasParseError();
}

}  // namespace

TEST_CASE("diff-findings prints and writes read-back text safely, refusing what it cannot write",
          "[cli]") {
  loupe::test::TempDir tmp;
  const fs::path old_file = tmp.path() / "old.json";
  const fs::path new_file = tmp.path() / "new.json";
  loupe::test::write_text(old_file, one_finding("gemm-1", "gemm", "GEMMs", "2.0"));

  // Terminal escapes in every printed field: neutralised in the text, escaped in the JSON.
  loupe::test::write_text(new_file, one_finding("x-\\u001b[2J", "\\u001b]0;owned\\u0007",
                                                "t\\u001b[31mred \\u00e9", "2.0"));
  auto r = run_loupe({"diff-findings", old_file.string(), new_file.string()});
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("x-\\x1b[2J") && Catch::Contains("\\x1b]0;owned\\x07") &&
                        Catch::Contains("t\\x1b[31mred \xc3\xa9"));
  CHECK(r.out.find('\x1b') == std::string::npos);
  CHECK(r.out.find('\x07') == std::string::npos);
  r = run_loupe({"diff-findings", old_file.string(), new_file.string(), "--json"});
  CHECK(r.exit_code == 0);
  CHECK(strict_json(r.out));
  CHECK_THAT(r.out, Catch::Contains(R"("id": "x-\u001b[2J")") &&
                        Catch::Contains("red \xc3\xa9"));  // UTF-8 kept as UTF-8

  // Text that is not UTF-8 (a raw byte, an encoded lone surrogate) and non-finite savings:
  // exit 2 naming the file and the value, before anything is printed.
  struct Bad {
    std::string document;
    std::string says;
  };
  const std::vector<Bad> bad = {
      {one_finding("gemm-1", "gemm", "bad \xff byte", "2.0"),
       "NEW has findings[0].title with invalid text: byte 0xff at offset 4 is not valid UTF-8"},
      {one_finding("gemm-\xed\xb0\x80", "gemm", "GEMMs", "2.0"),
       "NEW has findings[0].id with invalid text: byte 0xed at offset 5"},
      {one_finding("gemm-1", "ge\xc3", "GEMMs", "2.0"), "findings[0].category with invalid text"},
      {one_finding("gemm-1", "gemm", "GEMMs", "NaN"),
       "NEW has findings[0].saving_ms.mid = NaN, not a finite number of ms"},
      {one_finding("gemm-1", "gemm", "GEMMs", "Infinity"), "saving_ms.mid = Infinity"},
      {one_finding("gemm-1", "gemm", "GEMMs", "-Infinity"), "saving_ms.mid = -Infinity"},
  };
  for (const Bad& b : bad) {
    INFO(b.says);
    loupe::test::write_text(new_file, b.document);
    for (const bool json : {false, true}) {
      std::vector<std::string> args = {"diff-findings", old_file.string(), new_file.string()};
      if (json) args.emplace_back("--json");
      r = run_loupe(args);
      CHECK(r.exit_code == 2);
      CHECK(r.out.empty());
      CHECK_THAT(r.err, Catch::Contains(b.says) && Catch::Contains(new_file.string()));
    }
  }
  // A JSON \udc00 escape (a lone surrogate) is refused too, by the parser or by the check.
  loupe::test::write_text(new_file, one_finding("gemm-1", "gemm", "lone \\udc00", "2.0"));
  r = run_loupe({"diff-findings", old_file.string(), new_file.string(), "--json"});
  CHECK(r.exit_code == 2);
  CHECK(r.out.empty());
}

TEST_CASE("loupe validate quotes the validated file with terminal escapes neutralised", "[cli]") {
  loupe::test::TempDir tmp;
  const fs::path file = tmp.path() / "kernel_fusion_findings.md";
  loupe::test::write_text(file,
                          "## Recommendations\n<!-- impact-begin x=\x1b[2J\x7f -->\n"
                          "<!-- impact-end -->\n## Detailed Analysis\n");
  auto r = run_loupe({"validate", file.string(), "--tier", "system"});
  CHECK(r.exit_code != 0);
  CHECK_THAT(r.out, Catch::Contains("impact-begin missing kind= attribute: x=\\x1b[2J\\x7f"));
  CHECK(r.out.find('\x1b') == std::string::npos);
  r = run_loupe({"validate", file.string(), "--tier", "system", "--json"});
  CHECK(r.exit_code != 0);
  CHECK(strict_json(r.out));
  CHECK_THAT(r.out, Catch::Contains("x=\\u001B[2J"));
}
