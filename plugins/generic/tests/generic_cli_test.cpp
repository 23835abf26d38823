// The generic plugin through the real CLI, on the small fixtures in tests/data (TraceLens's
// outputs, see data/NOTICE.md; no reference pack needed): byte parity of the compat metrics,
// findings that pass both validators, the corrected mode, NO_DATA, bad input, and a category
// name no plugin declares (fallback routing).
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "cli_runner.hpp"
#include "compute_cli_support.hpp"

namespace fs = std::filesystem;
using loupe::test::read_text;
using loupe::test::TempDir;
using loupe::test::write_text;

namespace {

constexpr const char* kSkill = "generic-op-analyzer";

fs::path fixture(const std::string& name) { return fs::path(GENERIC_TEST_DATA) / name; }

bool contains(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

size_t count_of(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t pos = text.find(needle); pos != std::string::npos; pos = text.find(needle, pos + 1)) {
    ++n;
  }
  return n;
}

struct Case {
  const char* name;
  const char* category;
  const char* scope;
};

}  // namespace

TEST_CASE("generic: compat metrics equal TraceLens byte for byte; findings pass both validators") {
  for (const Case c :
       {Case{"h100_bert", "other", "standalone"}, Case{"b200_eager", "other", "standalone"},
        Case{"comparative_test02", "other", "comparative"},
        Case{"comparative_test01", "moe_aux", "comparative"}}) {
    INFO("case " << c.name);
    TempDir tmp;
    const fs::path dir = tmp.path() / "in";
    const fs::path out = tmp.path() / "out";
    compute_cli_test::make_analysis_dir(fixture(c.name), dir, c.category, kSkill, c.scope);
    const auto run = compute_cli_test::analyze(dir, out, c.category, true);
    INFO(run.err);
    REQUIRE(run.exit_code == 0);
    CHECK(compute_cli_test::metrics_with_placeholder(out, c.category, dir) ==
          read_text(fixture(c.name) / ("expected_" + std::string(c.category) + "_metrics.json")));
    const fs::path findings =
        out / "category_findings" / (std::string(c.category) + "_findings.md");
    for (const bool compat : {false, true}) {
      const auto check = compute_cli_test::validate(findings, c.scope, compat);
      INFO(check.out << check.err);
      CHECK(check.exit_code == 0);
    }
  }
}

TEST_CASE("generic: communication rows of 'other' are skipped; the default mode counts them") {
  TempDir tmp;
  const fs::path dir = tmp.path() / "in";
  compute_cli_test::make_analysis_dir(fixture("b200_eager"), dir, "other", kSkill, "standalone");
  REQUIRE(compute_cli_test::analyze(dir, tmp.path() / "tl", "other", true).exit_code == 0);
  const auto run = compute_cli_test::analyze(dir, tmp.path() / "fixed", "other", false);
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  const std::string tl = read_text(tmp.path() / "tl/category_data/other_metrics.json");
  const std::string fixed = read_text(tmp.path() / "fixed/category_data/other_metrics.json");
  // 10 CSV rows, 2 of them symm_mem::multimem_all_reduce_: 8 operations, 184 invocations.
  CHECK(contains(tl, "\"operation_count\": 184,"));
  CHECK(contains(tl, "\"communication_count\": 0,"));
  CHECK(contains(fixed, "\"communication_count\": 2,"));
  CHECK(count_of(fixed, "\"symm_mem::multimem_all_reduce_\"") == 2);  // only in op_names
  CHECK_FALSE(contains(fixed, "NaN"));
  const std::string md = read_text(tmp.path() / "fixed/category_findings/other_findings.md");
  CHECK(contains(md, "Communication Kernels (Skipped): 2 communication operation(s)"));
}

TEST_CASE("generic: default-mode card: op, kernel, library, time, bound, action, saving") {
  TempDir tmp;
  const fs::path dir = tmp.path() / "in";
  compute_cli_test::make_analysis_dir(fixture("b200_eager"), dir, "other", kSkill, "standalone");
  const auto run = compute_cli_test::analyze(dir, tmp.path() / "out", "other", false);
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  const fs::path findings = tmp.path() / "out/category_findings/other_findings.md";
  const auto check = compute_cli_test::validate(findings, "standalone", false);
  INFO(check.out << check.err);
  CHECK(check.exit_code == 0);
  const std::string md = read_text(findings);
  const std::string metrics = read_text(tmp.path() / "out/category_data/other_metrics.json");
  // b200_eager: one finding, vllm::moe_forward, unmodeled, 6.009 ms measured; heuristic saving
  // 15 / 30 / 45 % of it.
  CHECK(count_of(md, "<!-- impact-begin kind=p_item") == 1);
  CHECK(contains(md, "`vllm::moe_forward` (a whole mixture-of-experts layer"));
  CHECK(contains(md, "take 6.009 ms of measured kernel time"));
  CHECK(contains(md, "efficiency against the roofline cannot be computed (no performance model)"));
  CHECK(contains(md, "keep the fused-MoE backend of the serving framework"));
  // The prompt's Data-table extension: the sub-category after the 10 standard columns.
  CHECK(contains(md, "| FLOPS/Byte | Efficiency | Bound | Sub-Category |"));
  CHECK(contains(md, "| miscellaneous |"));
  CHECK(contains(md,
                 "projected saving 0.901 / 1.803 / 2.704 ms (low / mid / high) of 6.009 ms "
                 "measured"));
  CHECK(contains(metrics, "\"estimated_savings_ms_mid\": 1.803"));
  CHECK_FALSE(contains(metrics, "NaN"));
}

TEST_CASE("generic: a header-only CSV is NO_DATA; missing metadata is an ERROR naming the file") {
  TempDir tmp;
  const fs::path dir = tmp.path() / "in";
  compute_cli_test::make_analysis_dir(fixture("h100_bert"), dir, "other", kSkill, "standalone");
  const std::string csv = read_text(dir / "category_data/other_ops.csv");
  write_text(dir / "category_data/other_ops.csv", csv.substr(0, csv.find('\n') + 1));
  const auto empty = compute_cli_test::analyze(dir, tmp.path() / "empty", "other", false);
  CHECK(empty.exit_code == 0);
  CHECK(contains(read_text(tmp.path() / "empty/category_data/other_metrics.json"),
                 "\"status\": \"NO_DATA\""));
  const auto valid = compute_cli_test::validate(
      tmp.path() / "empty/category_findings/other_findings.md", "standalone", false);
  INFO(valid.out << valid.err);
  CHECK(valid.exit_code == 0);

  write_text(dir / "category_data/other_ops.csv", csv);
  fs::remove(dir / "metadata/other_metadata.json");
  const auto missing = compute_cli_test::analyze(dir, tmp.path() / "missing", "other", false);
  CHECK(missing.exit_code == 1);
  const std::string metrics = read_text(tmp.path() / "missing/category_data/other_metrics.json");
  CHECK(contains(metrics, "\"status\": \"ERROR\""));
  CHECK(contains(metrics, "other_metadata.json"));
}

TEST_CASE("generic: compat ERROR for a missing CSV has TraceLens's layout (no scope)") {
  TempDir tmp;
  const fs::path dir = tmp.path() / "in";
  compute_cli_test::make_analysis_dir(fixture("h100_bert"), dir, "other", kSkill, "standalone");
  fs::remove(dir / "category_data/other_ops.csv");
  const auto run = compute_cli_test::analyze(dir, tmp.path() / "out", "other", true);
  CHECK(run.exit_code == 1);
  const std::string metrics = read_text(tmp.path() / "out/category_data/other_metrics.json");
  CHECK(contains(metrics, "\"status\": \"ERROR\""));
  CHECK(contains(metrics, "Category CSV not found: "));
  CHECK_FALSE(contains(metrics, "comparison_scope"));
}

// Fallback routing: a category that no plugin declares and whose manifest skill no plugin serves
// goes to the generic plugin (the compute tier's fallback).
TEST_CASE("generic: analyzes a category name that exists nowhere else (fallback routing)") {
  TempDir tmp;
  const fs::path dir = tmp.path() / "in";
  compute_cli_test::make_analysis_dir(fixture("h100_bert"), dir, "zz_new", "zz-new-analyzer",
                                      "standalone");
  fs::rename(dir / "category_data/other_ops.csv", dir / "category_data/zz_new_ops.csv");
  fs::rename(dir / "metadata/other_metadata.json", dir / "metadata/zz_new_metadata.json");
  const auto run = compute_cli_test::analyze(dir, tmp.path() / "out", "zz_new", true);
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  // Same rows as h100_bert's "other" (no communication rows): TraceLens's numbers with the
  // category name replaced.
  std::string expected = read_text(fixture("h100_bert") / "expected_other_metrics.json");
  const std::string from = "\"category\": \"other\"";
  for (size_t pos = expected.find(from); pos != std::string::npos; pos = expected.find(from)) {
    expected.replace(pos, from.size(), "\"category\": \"zz_new\"");
  }
  CHECK(compute_cli_test::metrics_with_placeholder(tmp.path() / "out", "zz_new", dir) == expected);
  CHECK(compute_cli_test::validate(tmp.path() / "out/category_findings/zz_new_findings.md",
                                   "standalone", true)
            .exit_code == 0);
}
