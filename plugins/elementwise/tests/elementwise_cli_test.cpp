// The elementwise plugin through the real CLI on plugins/elementwise/tests/data (no reference
// pack needed).
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

TEST_CASE(
    "elementwise: compat metrics equal TraceLens byte for byte; findings pass both "
    "validators") {
  for (const char* name : {"add_poor_bw", "mi300_bert"}) {
    INFO("case " << name);
    TempDir tmp;
    const auto run = compute_test::run_fixture(kData / name, "elementwise", true, tmp.path());
    INFO(run.log);
    REQUIRE(run.exit_code == 0);
    CHECK(run.metrics == run.expected);
    CHECK(run.validator_failures == 0);
  }
}

TEST_CASE("elementwise: default-mode card fuses the memory-bound op and quotes its saving") {
  TempDir tmp;
  const auto run =
      compute_test::run_fixture(kData / "add_poor_bw", "elementwise", false, tmp.path());
  INFO(run.log);
  REQUIRE(run.exit_code == 0);
  CHECK(run.validator_failures == 0);
  CHECK_FALSE(contains(run.metrics, "NaN"));
  const auto cards = compute_test::cards(run.findings);
  REQUIRE(cards.size() == 1);
  INFO(cards[0]);
  CHECK(compute_test::missing_card_facts(cards[0]).empty());
  // aten::add at 36.11% of the HBM roofline for 4.21 ms: gap 2.690 ms, 87.5% of it 2.354 ms.
  CHECK(contains(cards[0], "`aten::add` (kernel "));
  CHECK(contains(cards[0], "takes 4.210 ms of measured kernel time"));
  CHECK(contains(cards[0], "at 36.11% of the "));
  CHECK(contains(cards[0], "TB/s roofline, memory-bound"));
  CHECK(contains(cards[0],
                 "**Action**: Fuse `aten::add` with the ops that produce and consume "
                 "their tensors: compile the module with `torch.compile`"));
  CHECK(contains(cards[0], "estimated saving 2.354 ms (low 2.017 ms, high 2.690 ms) of 4.210 ms"));
  CHECK(contains(run.findings, "Baseline elementwise ops (add, mul, copy, fill) are expected"));
}
