// The sdpa plugin through the real CLI, on the small fixtures in tests/data (TraceLens's outputs,
// see data/NOTICE.md; no reference pack needed): byte parity of the compat metrics, findings
// that pass both validators, the default-mode cards and corrections, NO_DATA and bad input.
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

constexpr const char* kSkill = "sdpa-analyzer";

fs::path fixture(const std::string& name) { return fs::path(SDPA_TEST_DATA) / name; }

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

constexpr Case kCases[] = {{"h100_bert", "sdpa_fwd", "standalone"},
                           {"b200_eager", "inferenceattention", "standalone"},
                           {"vllm_prefilldecode", "inferenceattention", "standalone"},
                           {"comparative_test03", "sdpa_fwd", "comparative"},
                           {"ut_02_head_waste", "sdpa_fwd", "standalone"},
                           {"ut_03_short_seq", "sdpa_fwd", "standalone"}};

// Runs one fixture in one mode; returns the output directory's findings and metrics.
struct Output {
  std::string md;
  std::string metrics;
  int exit_code = -1;
};

Output run_fixture(const TempDir& tmp, const Case& c, bool compat) {
  const fs::path dir = tmp.path() / "in";
  if (!fs::exists(dir))
    compute_cli_test::make_analysis_dir(fixture(c.name), dir, c.category, kSkill, c.scope);
  const fs::path out = tmp.path() / (compat ? "tl" : "fixed");
  const auto run = compute_cli_test::analyze(dir, out, c.category, compat);
  Output o;
  o.exit_code = run.exit_code;
  o.md = read_text(out / "category_findings" / (std::string(c.category) + "_findings.md"));
  o.metrics = read_text(out / "category_data" / (std::string(c.category) + "_metrics.json"));
  return o;
}

}  // namespace

TEST_CASE("sdpa: compat metrics equal TraceLens byte for byte; findings pass both validators") {
  for (const Case& c : kCases) {
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

TEST_CASE("sdpa: default-mode card for head-dim padding (N=65536, head dim 192)") {
  TempDir tmp;
  const Output o = run_fixture(tmp, kCases[4], false);
  REQUIRE(o.exit_code == 0);
  CHECK(count_of(o.md, "<!-- impact-begin kind=p_item") == 1);
  CHECK(contains(o.md,
                 "`aten::_scaled_dot_product_flash_attention` (flash attention (fused), B=1, "
                 "N_Q=65536, N_KV=65536, H_Q=8, H_KV=8, head dim 192) runs `attn_fwd.kd` "
                 "from AOTriton"));
  CHECK(contains(o.md, "take 1123.213 ms of measured kernel time"));
  CHECK(contains(o.md, "34.31% of the 708 TFLOPS roofline, compute-bound"));
  CHECK(contains(o.md,
                 "flash kernels commonly pad it to 256-wide head-dim tiles, so up to about "
                 "25% of the QK^T and PV work can be padding"));
  // A4: the saving targets the expected band (50 / 60 / 70 %), not the roofline: TraceLens's
  // impact 57.48 (the roofline gap) becomes 42.82.
  CHECK(contains(o.md,
                 "projected saving 352.464 / 480.922 / 572.678 ms (low / mid / high) of "
                 "1123.213 ms measured"));
  CHECK(contains(o.md, "<!-- impact-begin kind=p_item low=31.38 mid=42.82 high=50.99 -->"));
  CHECK(contains(o.metrics, "\"saving_basis\": \"expected_band\""));
  // N=65536: expected band 50-70 %, the op is below it.
  CHECK(contains(o.md,
                 "expected to reach 50\xE2\x80\x93"
                 "70% of roofline; these members are "
                 "below that band."));
  CHECK_FALSE(contains(o.metrics, "NaN"));
}

TEST_CASE("sdpa: default-mode paged attention (vLLM, GQA 64/8): backend switch and GQA note") {
  TempDir tmp;
  const Output o = run_fixture(tmp, kCases[2], false);
  REQUIRE(o.exit_code == 0);
  CHECK(contains(o.md, "runs `kernel_unified_attention_2d` from vLLM Triton"));
  CHECK(contains(o.md, "take 5.147 ms of measured kernel time (3.29% of E2E GPU time)"));
  CHECK(contains(o.md, "in vLLM, select the attention backend with the `VLLM_ATTENTION_BACKEND`"));
  CHECK(contains(o.md, "Grouped-query attention (64 query heads / 8 KV heads)"));
  // The prompt's Data-table extension for paged attention.
  CHECK(contains(o.md, "| Bound | Dominant kernel | Workload | Attention pattern |"));
  CHECK(contains(o.md, "| kernel_unified_attention_2d (100%) | unknown | GQA |"));
  CHECK(contains(o.md, "projected saving 1.920 / 2.240 / 2.560 ms (low / mid / high) of 5.147 ms"));
  // TraceLens could not name the library of the Triton paged kernel (null); Loupe can (A2).
  const Output tl = run_fixture(tmp, kCases[2], true);
  CHECK(contains(tl.metrics, "\"library\": null,"));
  CHECK(contains(o.metrics, "\"library\": \"vLLM Triton\","));
}

TEST_CASE("sdpa: kernel breakdown keeps kernel names and weighs total time in the default mode") {
  TempDir tmp;
  const Output tl = run_fixture(tmp, kCases[1], true);
  const Output fixed = run_fixture(tmp, kCases[1], false);
  REQUIRE(fixed.exit_code == 0);
  // TraceLens drops every ')' of the kernel details before reading the names.
  CHECK(contains(tl.metrics, "(vllm::Fp8KVCacheDataType1>(__nv_bfloat16 const*"));
  CHECK(contains(tl.metrics, "\"mean_us\": 4.519055555555555,"));
  CHECK(contains(fixed.metrics, "(vllm::Fp8KVCacheDataType)1>(__nv_bfloat16 const*"));
  CHECK(contains(fixed.metrics, "\"total_us\": 162.68599999999998,"));
  // Same launch count for both kernels: the shares agree (25.09 % reshape_and_cache).
  CHECK(contains(tl.metrics, "\"avg_reshape_cache_percent\": 25.09,"));
  CHECK(contains(fixed.metrics, "\"avg_reshape_cache_percent\": 25.09,"));
}

TEST_CASE("sdpa: short sequence within its band -> batching / GPU graphs, framework-free") {
  TempDir tmp;
  const Output o = run_fixture(tmp, kCases[5], false);
  REQUIRE(o.exit_code == 0);
  CHECK(contains(o.md, "Short sequences (N=128) leave the kernel overhead-dominated"));
  CHECK(contains(o.md, "`torch.compile(mode=\"reduce-overhead\")`"));
  // 12.18 % sits inside the 5-15 % band of N=128: only the band's top is left to gain (A4),
  // 1.08 ms x (1 - 12.18 / 15) = 0.203 ms, where the roofline model claimed 0.830 ms.
  CHECK(contains(o.md, "projected saving 0.000 / 0.000 / 0.203 ms (low / mid / high) of 1.080 ms"));
  CHECK(contains(o.md,
                 "expected to reach 5\xE2\x80\x93"
                 "15% of roofline; these members are within "
                 "or above it"));
}

TEST_CASE("sdpa: a header-only CSV is NO_DATA; a missing CSV is an ERROR in compat mode") {
  TempDir tmp;
  const fs::path dir = tmp.path() / "in";
  compute_cli_test::make_analysis_dir(fixture("h100_bert"), dir, "sdpa_fwd", kSkill, "standalone");
  const std::string csv = read_text(dir / "category_data/sdpa_fwd_ops.csv");
  write_text(dir / "category_data/sdpa_fwd_ops.csv", csv.substr(0, csv.find('\n') + 1));
  const auto empty = compute_cli_test::analyze(dir, tmp.path() / "empty", "sdpa_fwd", false);
  CHECK(empty.exit_code == 0);
  CHECK(contains(read_text(tmp.path() / "empty/category_data/sdpa_fwd_metrics.json"),
                 "\"status\": \"NO_DATA\""));
  CHECK(compute_cli_test::validate(tmp.path() / "empty/category_findings/sdpa_fwd_findings.md",
                                   "standalone", false)
            .exit_code == 0);

  fs::remove(dir / "category_data/sdpa_fwd_ops.csv");
  const auto missing = compute_cli_test::analyze(dir, tmp.path() / "missing", "sdpa_fwd", true);
  CHECK(missing.exit_code == 1);
  const std::string metrics = read_text(tmp.path() / "missing/category_data/sdpa_fwd_metrics.json");
  CHECK(contains(metrics, "\"status\": \"ERROR\""));
  CHECK(contains(metrics, "Category CSV not found: "));
  CHECK(contains(metrics, "sdpa_fwd_ops.csv"));
}

TEST_CASE("sdpa: sdpa_bwd is analyzed and a flash backward op gets the backward action") {
  TempDir tmp;
  const fs::path dir = tmp.path() / "in";
  compute_cli_test::make_analysis_dir(fixture("h100_bert"), dir, "sdpa_bwd", kSkill, "standalone");
  // The forward op renamed to its backward: same row, same numbers.
  std::string csv = read_text(dir / "category_data/sdpa_fwd_ops.csv");
  const std::string fwd = "aten::_scaled_dot_product_flash_attention";
  const std::string bwd = fwd + "_backward";
  for (size_t pos = csv.find(fwd); pos != std::string::npos; pos = csv.find(fwd, pos)) {
    csv.replace(pos, fwd.size(), bwd);
    pos += bwd.size();
  }
  write_text(dir / "category_data/sdpa_bwd_ops.csv", csv);
  fs::copy_file(dir / "metadata/sdpa_fwd_metadata.json", dir / "metadata/sdpa_bwd_metadata.json");
  const auto run = compute_cli_test::analyze(dir, tmp.path() / "out", "sdpa_bwd", false);
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  const std::string md = read_text(tmp.path() / "out/category_findings/sdpa_bwd_findings.md");
  CHECK(contains(md, "# SDPA Findings: Backward attention (sdpa_bwd)"));
  CHECK(contains(md, "`aten::_scaled_dot_product_flash_attention_backward` (flash attention"));
  CHECK(contains(md, "Profile the flash backward kernel for tile / block tuning"));
  CHECK(compute_cli_test::validate(tmp.path() / "out/category_findings/sdpa_bwd_findings.md",
                                   "standalone", false)
            .exit_code == 0);
}

TEST_CASE("sdpa: a category routed by its manifest skill sdpa-analyzer is analyzed as attention") {
  TempDir tmp;
  const fs::path dir = tmp.path() / "in";
  compute_cli_test::make_analysis_dir(fixture("h100_bert"), dir, "attn_custom", kSkill,
                                      "standalone");
  fs::rename(dir / "category_data/sdpa_fwd_ops.csv", dir / "category_data/attn_custom_ops.csv");
  fs::rename(dir / "metadata/sdpa_fwd_metadata.json", dir / "metadata/attn_custom_metadata.json");
  const auto run = compute_cli_test::analyze(dir, tmp.path() / "out", "attn_custom", true);
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  // TraceLens's numbers for h100_bert's sdpa_fwd, under the new category name.
  std::string expected = read_text(fixture("h100_bert") / "expected_sdpa_fwd_metrics.json");
  const std::string from = "\"category\": \"sdpa_fwd\"";
  for (size_t pos = expected.find(from); pos != std::string::npos; pos = expected.find(from)) {
    expected.replace(pos, from.size(), "\"category\": \"attn_custom\"");
  }
  CHECK(compute_cli_test::metrics_with_placeholder(tmp.path() / "out", "attn_custom", dir) ==
        expected);
  CHECK(contains(read_text(tmp.path() / "out/category_findings/attn_custom_findings.md"),
                 "# SDPA Findings: Attention (attn_custom)"));
}
