// The gemm plugin through the real CLI on the fixtures in plugins/gemm/tests/data (no reference
// pack needed): TraceLens parity of the metrics, findings valid for both validators, and the
// default mode's shape-driven actions and savings.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "cli_runner.hpp"
#include "compute_plugin_test_support.hpp"

namespace fs = std::filesystem;
using loupe::test::read_text;
using loupe::test::TempDir;

namespace {

const fs::path kData = PLUGIN_TEST_DATA;

bool contains(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

struct Run {
  std::string metrics;
  std::string findings;
};

Run run_case(const TempDir& tmp, const std::string& name, bool compat) {
  const fs::path dir = tmp.path() / ("in_" + name);
  const fs::path out = tmp.path() / ("out_" + name + (compat ? "_compat" : ""));
  const std::string s =
      read_text(kData / name / "scope").rfind("comparative", 0) == 0 ? "comparative" : "standalone";
  compute_test::make_analysis_dir(kData / name, dir, "gemm", s);
  const auto result = compute_test::analyze(dir, out, "gemm", compat);
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const fs::path md = out / "category_findings" / "gemm_findings.md";
  for (const bool strict : {false, true}) {
    const auto check = compute_test::validate(md, s, strict);
    INFO(check.out << check.err);
    CHECK(check.exit_code == 0);
  }
  return {compute_test::metrics_with_placeholder(out, "gemm", dir), read_text(md)};
}

}  // namespace

TEST_CASE("gemm: compat metrics equal TraceLens byte for byte; findings pass both validators") {
  for (const char* name : {"few_tiles", "misaligned", "tall_skinny", "comparative", "bert"}) {
    INFO("case " << name);
    TempDir tmp;
    CHECK(run_case(tmp, name, true).metrics ==
          read_text(kData / name / "expected_gemm_metrics.json"));
  }
}

TEST_CASE("gemm: default-mode actions follow the shape (pad, split-K, batch or fuse)") {
  TempDir tmp;
  const Run misaligned = run_case(tmp, "misaligned", false);
  CHECK(contains(misaligned.findings,
                 "**Action**: Pad `aten::mm`'s N from 4097 to 4160 and K from 4097 to 4160 "
                 "(multiples of 64;"));
  CHECK(contains(misaligned.metrics, "\"gemm_dims\": {\n        \"M\": 4097,"));
  // 52.91% of roofline on 3.672 ms: the whole gap is 1.729 ms, 87.5% of it 1.513 ms.
  CHECK(contains(misaligned.findings,
                 "estimated saving 1.513 ms (low 1.297 ms, high 1.729 ms) of 3.672 ms measured"));
  CHECK(contains(misaligned.metrics, "\"estimated_savings_ms_high\": 1.729"));

  const Run few = run_case(tmp, "few_tiles", false);
  CHECK(contains(few.findings,
                 "**Action**: Use a split-K or stream-K GEMM for `aten::mm`: M x N = "
                 "256 x 512 fills only 8 output tiles of 128 x 128 while K = 131072"));
  const Run skinny = run_case(tmp, "tall_skinny", false);
  CHECK(contains(skinny.findings,
                 "**Action**: Batch `aten::mm` (M=131072, N=32, K=32, a tall-skinny product at "
                 "16.0 FLOPS/Byte)"));
  for (const Run* run : {&misaligned, &few, &skinny}) {
    CHECK_FALSE(contains(run->metrics, "NaN"));
    const auto cards = compute_test::cards(run->findings);
    CHECK(cards.size() == 1);
    for (const auto& card : cards) {
      INFO(card);
      CHECK(compute_test::missing_card_facts(card).empty());
      CHECK((contains(card, "`aten::mm` (kernel Cijk_") ||
             contains(card, "`aten::mm` (kernels Cijk_B_PostGSU2, Cijk_")));
      CHECK((contains(card, "TFLOPS roofline, compute-bound") ||
             contains(card, "TB/s roofline, memory-bound")));
    }
  }
}

TEST_CASE("gemm: compat cards keep the analyzer prompt's action table") {
  TempDir tmp;
  const Run misaligned = run_case(tmp, "misaligned", true);
  CHECK(contains(misaligned.findings,
                 "**Action**: Profile the dominant member kernels for tile-size and "
                 "wave-occupancy tuning."));
  CHECK(
      contains(misaligned.findings, "### P1: Compute-bound GEMMs at 30-60% of roofline (Tensile)"));
  CHECK_FALSE(contains(misaligned.findings, "estimated saving"));
}

TEST_CASE("gemm: missing CSV is NO_DATA in the default mode, ERROR in compat") {
  TempDir tmp;
  const fs::path dir = tmp.path() / "in";
  compute_test::make_analysis_dir(kData / "bert", dir, "gemm");
  fs::remove(dir / "category_data" / "gemm_ops.csv");
  CHECK(compute_test::analyze(dir, tmp.path() / "a", "gemm", false).exit_code == 0);
  CHECK(contains(read_text(tmp.path() / "a/category_data/gemm_metrics.json"), "\"NO_DATA\""));
  CHECK(contains(read_text(tmp.path() / "a/category_findings/gemm_findings.md"),
                 "No GEMM operations found in trace."));
  CHECK(compute_test::analyze(dir, tmp.path() / "b", "gemm", true).exit_code == 1);
  CHECK(contains(compute_test::metrics_with_placeholder(tmp.path() / "b", "gemm", dir),
                 "\"error\": \"Category CSV not found: <output_dir>/category_data/gemm_ops.csv\""));
}
