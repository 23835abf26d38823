// Compat parity beyond the reference pack: a synthetic trace that launches every op the perf-model
// unit tests model (156 argument sets of 131 op names: serving-engine attention, MoE, quantization,
// GEMM libraries, collectives, training ops, inductor kernels) runs through
// `loupe analyze --trace --compat tracelens` and every file of the analysis directory equals the
// one TraceLens's own pipeline wrote from the same trace (tests/data/tracelens_sweep/README.md).
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

TEST_CASE("the serving op sweep: every prepared file equals TraceLens's",
          "[prepare][analysis_dir][e2e][parity]") {
  const fs::path data = loupe::test::bundled_data_dir() / "tracelens_sweep";
  const fs::path trace = data / "serving_ops.json.gz";
  const fs::path reference = data / "tracelens";
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
  // perf_report_csvs (29), category_data (25 with the conv metrics), metadata (25).
  CHECK(compared >= 80);
}
