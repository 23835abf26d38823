// The norm plugin through the real CLI on plugins/norm/tests/data (no reference pack needed).
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

TEST_CASE("norm: compat metrics equal TraceLens byte for byte; findings pass both validators") {
  for (const auto& [name, category] :
       {std::pair{"bert_fwd", "norm_fwd"}, std::pair{"resnet_bwd", "norm_bwd"}}) {
    INFO("case " << name);
    TempDir tmp;
    const auto run = compute_test::run_fixture(kData / name, category, true, tmp.path());
    INFO(run.log);
    REQUIRE(run.exit_code == 0);
    CHECK(run.metrics == run.expected);
    CHECK(run.validator_failures == 0);
  }
}

TEST_CASE("norm: default-mode cards name a fused norm kernel or channels-last") {
  TempDir tmp;
  const auto layer = compute_test::run_fixture(kData / "bert_fwd", "norm_fwd", false, tmp.path());
  INFO(layer.log);
  REQUIRE(layer.exit_code == 0);
  CHECK(layer.validator_failures == 0);
  CHECK_FALSE(contains(layer.metrics, "NaN"));
  const auto cards = compute_test::cards(layer.findings);
  REQUIRE(cards.size() == 1);
  INFO(cards[0]);
  CHECK(compute_test::missing_card_facts(cards[0]).empty());
  CHECK(contains(cards[0],
                 "**Action**: Replace `aten::layer_norm` with a fused normalization "
                 "kernel: apex's `FusedLayerNorm` / `FusedRMSNorm`"));

  const auto batch = compute_test::run_fixture(kData / "resnet_bwd", "norm_bwd", false, tmp.path());
  INFO(batch.log);
  REQUIRE(batch.exit_code == 0);
  CHECK(batch.validator_failures == 0);
  const auto bn_cards = compute_test::cards(batch.findings);
  REQUIRE(bn_cards.size() == 1);
  INFO(bn_cards[0]);
  CHECK(compute_test::missing_card_facts(bn_cards[0]).empty());
  CHECK(contains(bn_cards[0],
                 "channels-last (`model = model.to(memory_format=torch.channels_last)`)"));
  CHECK(contains(batch.findings, "**Resolution:** In channels-last tensors"));
}

TEST_CASE("norm: a header-only CSV is NO_DATA in the default mode") {
  TempDir tmp;
  const fs::path dir = tmp.path() / "in";
  compute_test::make_analysis_dir(kData / "bert_fwd", dir, "norm_fwd");
  const std::string csv = loupe::test::read_text(dir / "category_data/norm_fwd_ops.csv");
  loupe::test::write_text(dir / "category_data/norm_fwd_ops.csv",
                          csv.substr(0, csv.find('\n') + 1));
  CHECK(compute_test::analyze(dir, tmp.path() / "out", "norm_fwd", false).exit_code == 0);
  CHECK(contains(loupe::test::read_text(tmp.path() / "out/category_data/norm_fwd_metrics.json"),
                 "\"status\": \"NO_DATA\""));
  CHECK(compute_test::validate(tmp.path() / "out/category_findings/norm_fwd_findings.md",
                               "standalone", false)
            .exit_code == 0);
}
