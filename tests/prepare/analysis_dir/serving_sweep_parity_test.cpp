// Compat parity beyond the reference pack: synthetic traces that launch every op the perf-model
// unit tests model (156 argument sets of 131 op names: serving-engine attention, MoE, quantization,
// GEMM libraries, collectives, training ops, inductor kernels), 32 argument sets those models
// reject, and each of the 233 trace op names TraceLens maps without args and with a generic pair
// of 2-D bf16 operands, and small traces where each pseudo-op extension fires or must not, run
// through `loupe analyze --trace --compat tracelens`; every file of the
// analysis directory equals the one TraceLens's own pipeline wrote from the same trace
// (tests/data/tracelens_sweep/README.md).
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "cli_runner.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;

namespace {

void replace_all(std::string& text, const std::string& from, const std::string& to) {
  for (auto pos = text.find(from); pos != std::string::npos;
       pos = text.find(from, pos + to.size())) {
    text.replace(pos, from.size(), to);
  }
}

}  // namespace

// Runs the sweep `name` (tests/data/tracelens_sweep/<name>.json.gz) and compares every file of
// TraceLens's directory <name>/ with Loupe's; returns how many were compared.
std::size_t compare_sweep(const std::string& name) {
  const fs::path data = loupe::test::bundled_data_dir() / "tracelens_sweep";
  const fs::path trace = data / (name + ".json.gz");
  const fs::path reference = data / name;
  loupe::test::TempDir tmp;
  const fs::path out = tmp.path() / "out";
  const auto r = loupe::test::run_loupe({"analyze", "--trace", trace.string(), "-o", out.string(),
                                         "--compat", "tracelens", "--platform", "MI300X", "-q"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  std::size_t compared = 0;
  for (const auto& entry : fs::recursive_directory_iterator(reference)) {
    if (!entry.is_regular_file()) continue;
    const fs::path relative = fs::relative(entry.path(), reference);
    INFO("file " << relative.string());
    std::string expected = loupe::test::read_text(entry.path());
    replace_all(expected, "<trace>", trace.string());
    replace_all(expected, "<output_dir>", out.string());
    REQUIRE(fs::exists(out / relative));
    CHECK(loupe::test::read_text(out / relative) == expected);
    ++compared;
  }
  return compared;
}

TEST_CASE("the serving op sweep: every prepared file equals TraceLens's",
          "[prepare][analysis_dir][e2e][parity]") {
  // perf_report_csvs (29), category_data (25 with the conv metrics), metadata (25).
  CHECK(compare_sweep("serving_ops") >= 80);
}

TEST_CASE("ops whose models fail: rows kept, dropped and counted as TraceLens does",
          "[prepare][analysis_dir][e2e][parity]") {
  CHECK(compare_sweep("failing_ops") >= 45);
}

TEST_CASE("every op name TraceLens maps, without shapes and with a generic pair of them",
          "[prepare][analysis_dir][e2e][parity]") {
  CHECK(compare_sweep("mapped_ops") >= 65);
}

TEST_CASE("pseudo ops: each extension where it fires and where it must not",
          "[prepare][analysis_dir][e2e][parity]") {
  // AITER fused MoE (one fused kernel; two: no pseudo op), Triton unfused MoE (with and without
  // the scatter kernel), GPTQ/AWQ MoE, flydsl stages (inside and outside aiter::fused_moe_), MLA
  // decode/prefill (with and without the stage-1 op), DeepSeek-V4 paged decode (SWA, HCA).
  std::size_t compared = 0;
  for (const char* name : {"aiter1", "aiter2", "triton0", "triton1", "gptq", "flydsl0", "flydsl1",
                           "mla0", "mla1", "v4", "v4hca"}) {
    INFO("sweep " << name);
    compared += compare_sweep(std::string("pseudo_ops/") + name);
  }
  CHECK(compared >= 160);
}
