// `mpirun -np 3 loupe analyze --mpi --trace-glob ...` on the pack's 16-rank set writes the same
// collective report and cross-rank findings, byte for byte, as the single-process run.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "cli_runner.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;

TEST_CASE("mpirun -np 3 --mpi equals the single-process run on bert_16r",
          "[multirank][mpi][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  const fs::path set = shared / "data/multirank/bert_16r/traces";
  REQUIRE(fs::exists(set / "rank15_trace.json.gz"));
  loupe::test::TempDir tmp;
  const std::string glob = (set / "rank*_trace.json.gz").string();
  const std::string plugins = loupe::test::bundled_plugin_dir().string();
  const auto single =
      loupe::test::run_loupe({"analyze", "-q", "--trace-glob", glob, "-o",
                              (tmp.path() / "single").string(), "--plugin-dir", plugins});
  INFO(single.out << single.err);
  REQUIRE(single.exit_code == 0);
  const auto mpi = loupe::test::run_process(
      LOUPE_MPIRUN, {"--allow-run-as-root", "--oversubscribe", "-np", "3",
                     loupe::test::loupe_exe().string(), "analyze", "-q", "--mpi", "--trace-glob",
                     glob, "-o", (tmp.path() / "mpi").string(), "--plugin-dir", plugins});
  INFO(mpi.out << mpi.err);
  REQUIRE(mpi.exit_code == 0);
  std::size_t identical = 0;
  std::size_t compared = 0;
  for (const auto& entry : fs::directory_iterator(tmp.path() / "single/collective_report")) {
    ++compared;
    const fs::path other = tmp.path() / "mpi/collective_report" / entry.path().filename();
    INFO(other);
    REQUIRE(fs::exists(other));
    if (loupe::test::read_text(other) == loupe::test::read_text(entry.path())) ++identical;
  }
  CHECK(compared == 7);
  CHECK(identical == 7);
  const std::string findings = "system_findings/multirank_findings.md";
  CHECK(loupe::test::read_text(tmp.path() / "mpi" / findings) ==
        loupe::test::read_text(tmp.path() / "single" / findings));
  CHECK(loupe::test::read_text(tmp.path() / "mpi" / "findings.json") ==
        loupe::test::read_text(tmp.path() / "single" / "findings.json"));
  for (int r = 0; r < 16; ++r) {
    const fs::path timeline =
        fs::path("rank_" + std::to_string(r)) / "perf_report_csvs/gpu_timeline.csv";
    CHECK(loupe::test::read_text(tmp.path() / "mpi" / timeline) ==
          loupe::test::read_text(tmp.path() / "single" / timeline));
  }
}
