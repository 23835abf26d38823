// The triton plugin through the real CLI on plugins/triton/tests/data (no reference pack
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

TEST_CASE("triton: compat metrics equal TraceLens byte for byte; findings pass both validators") {
  for (const char* name : {"moe_trace2", "b200"}) {
    INFO("case " << name);
    TempDir tmp;
    const auto run = compute_test::run_fixture(kData / name, "triton", true, tmp.path());
    INFO(run.log);
    REQUIRE(run.exit_code == 0);
    CHECK(run.metrics == run.expected);
    CHECK(run.validator_failures == 0);
  }
}

TEST_CASE("triton: default-mode card autotunes the kernel and quotes its saving") {
  TempDir tmp;
  const auto run = compute_test::run_fixture(kData / "moe_trace2", "triton", false, tmp.path());
  INFO(run.log);
  REQUIRE(run.exit_code == 0);
  CHECK(run.validator_failures == 0);
  CHECK_FALSE(contains(run.metrics, "NaN"));
  const auto cards = compute_test::cards(run.findings);
  REQUIRE(cards.size() == 1);
  INFO(cards[0]);
  CHECK(compute_test::missing_card_facts(cards[0]).empty());
  CHECK(contains(cards[0],
                 "**Action**: Autotune the launch configurations of "
                 "`triton::fused_moe_kernel`: compile with "
                 "`torch.compile(mode=\"max-autotune\")`"));
  CHECK(contains(cards[0], "`@triton.autotune` configs"));
  // 0.8 ms without a performance model: 15 / 30 / 45 % of it.
  CHECK(contains(cards[0], "estimated saving 0.240 ms (low 0.120 ms, high 0.360 ms) of 0.800 ms"));
  CHECK(contains(run.findings,
                 "- Inductor kernel types: 0 pointwise, 0 reduction, 0 persistent, "
                 "1 other"));
}
