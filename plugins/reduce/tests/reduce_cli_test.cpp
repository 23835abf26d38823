// The reduce plugin through the real CLI on plugins/reduce/tests/data (no reference pack
// needed).
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "cli_runner.hpp"
#include "compute_plugin_test_support.hpp"

namespace fs = std::filesystem;
using loupe::test::TempDir;

namespace {
const fs::path kData = PLUGIN_TEST_DATA;
bool contains(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}
}  // namespace

TEST_CASE("reduce: compat metrics equal TraceLens byte for byte; findings pass both validators") {
  for (const char* name : {"h100_qwen", "bert"}) {
    INFO("case " << name);
    TempDir tmp;
    const auto run = compute_test::run_fixture(kData / name, "reduce", true, tmp.path());
    INFO(run.log);
    REQUIRE(run.exit_code == 0);
    CHECK(run.metrics == run.expected);
    CHECK(run.validator_failures == 0);
  }
}

TEST_CASE("reduce: a softmax inside an attention module gets the fused-attention action") {
  TempDir tmp;
  const fs::path dir = tmp.path() / "in";
  compute_test::make_analysis_dir(kData / "softmax_attention", dir, "reduce");
  const auto result = compute_test::analyze(dir, tmp.path() / "out", "reduce", false);
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const fs::path md = tmp.path() / "out/category_findings/reduce_findings.md";
  CHECK(compute_test::validate(md, "standalone", false).exit_code == 0);
  CHECK(compute_test::validate(md, "standalone", true).exit_code == 0);
  const std::string findings = loupe::test::read_text(md);
  const auto cards = compute_test::cards(findings);
  REQUIRE(cards.size() == 1);
  INFO(cards[0]);
  CHECK(compute_test::missing_card_facts(cards[0]).empty());
  CHECK(contains(cards[0],
                 "**Action**: Replace the attention block's separate softmax "
                 "(`aten::_softmax`) with a fused attention kernel"));
  // 0.743 ms at 45.61% of the HBM roofline: the whole gap is 0.404 ms.
  CHECK(contains(cards[0], "takes 0.743 ms of measured kernel time"));
  CHECK(contains(cards[0], "high 0.404 ms) of 0.743 ms measured"));
  CHECK(contains(findings, "The category holds 1 softmax signatures, an attention pattern."));
}
