// The moe plugin through the real CLI on plugins/moe/tests/data (no reference pack needed).
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "cli_runner.hpp"
#include "compute_plugin_test_support.hpp"
#include "moe_analyzer.hpp"

namespace fs = std::filesystem;
using loupe::test::TempDir;

namespace {
const fs::path kData = PLUGIN_TEST_DATA;
bool contains(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}
}  // namespace

TEST_CASE("moe: compat metrics equal TraceLens byte for byte; findings pass both validators") {
  for (const char* name : {"unfused_trace1", "comparative"}) {
    INFO("case " << name);
    TempDir tmp;
    const auto run = compute_test::run_fixture(kData / name, "moe_unfused", true, tmp.path());
    INFO(run.log);
    REQUIRE(run.exit_code == 0);
    CHECK(run.metrics == run.expected);
    CHECK(run.validator_failures == 0);
  }
}

TEST_CASE("moe: default-mode unfused cards name a fused MoE kernel and stay estimates") {
  TempDir tmp;
  const auto run =
      compute_test::run_fixture(kData / "unfused_trace1", "moe_unfused", false, tmp.path());
  INFO(run.log);
  REQUIRE(run.exit_code == 0);
  CHECK(run.validator_failures == 0);
  CHECK_FALSE(contains(run.metrics, "NaN"));
  const auto cards = compute_test::cards(run.findings);
  REQUIRE(cards.size() == 2);
  for (const auto& card : cards) {
    INFO(card);
    CHECK(compute_test::missing_card_facts(card).empty());
    CHECK(contains(card, "with a fused MoE kernel"));
    CHECK(contains(card, "grouped GEMM per stage"));
    // AITER's CK stages are not triton_kernels' grouped matmul_ogs.
    CHECK_FALSE(contains(card, "already run as one grouped GEMM per stage"));
    // No performance model: the card says so and calls its impact an estimate.
    CHECK(contains(card, "with no performance model (efficiency and bound type unknown)"));
    CHECK(contains(card, "**Warning \xE2\x80\x94 estimated:**"));
  }
  // aiter::ck_moe_stage1: 0.48 ms, heuristic 15 / 30 / 45 % of it.
  CHECK(contains(cards[0], "estimated saving 0.144 ms (low 0.072 ms, high 0.216 ms) of 0.480 ms"));
}

TEST_CASE("moe: no CSV is TraceLens's NO_DATA document in compat, NO_DATA in the default mode") {
  TempDir tmp;
  const fs::path dir = tmp.path() / "in";
  compute_test::make_analysis_dir(kData / "unfused_trace1", dir, "moe_fused");
  const auto compat = compute_test::analyze(dir, tmp.path() / "a", "moe_fused", true);
  CHECK(compat.exit_code == 0);
  CHECK(loupe::test::read_text(tmp.path() / "a/category_data/moe_fused_metrics.json") ==
        "{\n  \"category\": \"moe_fused\",\n  \"status\": \"NO_DATA\",\n  \"comparison_scope\": "
        "\"standalone\",\n  \"message\": \"No MoE operations detected in this trace (moe_fused "
        "bucket)\",\n  \"total_time_ms\": 0,\n  \"percent_of_compute\": 0,\n  "
        "\"operation_count\": 0,\n  \"operations\": [],\n  \"category_specific\": {},\n  "
        "\"category_findings\": []\n}");
  CHECK(compute_test::analyze(dir, tmp.path() / "b", "moe_fused", false).exit_code == 0);
  CHECK(contains(loupe::test::read_text(tmp.path() / "b/category_data/moe_fused_metrics.json"),
                 "\"status\": \"NO_DATA\""));
  for (const char* out : {"a", "b"}) {
    CHECK(compute_test::validate(tmp.path() / out / "category_findings/moe_fused_findings.md",
                                 "standalone", false)
              .exit_code == 0);
  }
}
